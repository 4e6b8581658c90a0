import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import {
  contactCodeBase,
  contactCodeCandidate,
  contactCodeCandidatePattern,
  contactCodeIssuer,
  generateContactCode,
  isContactCodeShape,
  normaliseContactCode
} from "../../src/contacts/ContactCode.js"

const takenIn = (codes: Iterable<string>) => {
  const set = new Set(codes)
  return (code: string) => set.has(code)
}

describe("contactCodeBase", () => {
  it("keeps the upper-case letters and digits, at most 8", () => {
    expect(contactCodeBase("Acme Builders Ltd")).toBe("ACMEBUIL")
    expect(contactCodeBase("J. O'Neill & Sons (2019)")).toBe("JONEILLS")
    expect(contactCodeBase("3D Scaffolding")).toBe("3DSCAFFO")
  })

  it("keeps short names whole", () => {
    expect(contactCodeBase("Bo")).toBe("BO")
    expect(contactCodeBase("x")).toBe("X")
  })

  it("maps accented letters to ASCII", () => {
    expect(contactCodeBase("Café Renée")).toBe("CAFERENE")
    expect(contactCodeBase("Łódź Ærø")).toBe("LODZAERO")
    expect(contactCodeBase("Straße")).toBe("STRASSE")
    expect(contactCodeBase("Ｆｕｌｌ")).toBe("FULL")
  })

  it("falls back to CONTACT when the name has no letters or digits", () => {
    expect(contactCodeBase("")).toBe("CONTACT")
    expect(contactCodeBase("  --- !!")).toBe("CONTACT")
    expect(contactCodeBase("株式会社")).toBe("CONTACT")
  })
})

describe("generateContactCode", () => {
  it("uses the base when it is free", () => {
    expect(generateContactCode("Acme Builders", takenIn([]))).toBe("ACMEBUIL")
  })

  it("replaces trailing characters with a numeric suffix on collision", () => {
    expect(generateContactCode("Acme Builders", takenIn(["ACMEBUIL"]))).toBe("ACMEBUI2")
    expect(generateContactCode("Acme Builders", takenIn(["ACMEBUIL", "ACMEBUI2"]))).toBe("ACMEBUI3")
  })

  it("gives up a second character from the 10th collision on", () => {
    const taken = ["ACMEBUIL", ...Array.from({ length: 8 }, (_, i) => `ACMEBUI${i + 2}`)]
    expect(generateContactCode("Acme Builders", takenIn(taken))).toBe("ACMEBU10")
    expect(generateContactCode("Acme Builders", takenIn([...taken, "ACMEBU10"]))).toBe("ACMEBU11")
  })

  it("appends the suffix to a short base", () => {
    expect(generateContactCode("Bo", takenIn(["BO"]))).toBe("BO2")
    expect(generateContactCode("", takenIn(["CONTACT", "CONTACT2"]))).toBe("CONTACT3")
  })

  it.prop(
    "always returns a free code of 1 to 8 upper-case letters and digits",
    [FastCheck.string(), FastCheck.array(FastCheck.integer({ min: 2, max: 30 }))],
    ([name, suffixes]) => {
      const base = contactCodeBase(name)
      const taken = takenIn([base, ...suffixes.map((n) => base.slice(0, 8 - String(n).length) + n)])
      const code = generateContactCode(name, taken)
      expect(code).toMatch(/^[A-Z0-9]{1,8}$/)
      expect(taken(code)).toBe(false)
    }
  )
})

describe("normaliseContactCode", () => {
  it("matches path values case-insensitively", () => {
    expect(normaliseContactCode(" acmeBui2 ")).toBe("ACMEBUI2")
  })
})

describe("contactCodeCandidatePattern", () => {
  it.prop(
    "matches the base and every candidate generateContactCode may try for it",
    [FastCheck.string(), FastCheck.integer({ min: 2, max: 9_999_999 })],
    ([name, n]) => {
      const base = contactCodeBase(name)
      const pattern = new RegExp(contactCodeCandidatePattern(base))
      expect(pattern.test(base)).toBe(true)
      expect(pattern.test(contactCodeCandidate(base, n))).toBe(true)
    }
  )

  it("matches no other code", () => {
    const pattern = new RegExp(contactCodeCandidatePattern("ACMEBUIL"))
    for (const other of ["ACMEBUIX", "ACMEBUI", "BCMEBUI2", "ACMEBUIL2", "ACME", "acmebuil"]) {
      expect(pattern.test(other), other).toBe(false)
    }
  })
})

describe("isContactCodeShape", () => {
  it("accepts 1 to 8 upper-case letters and digits only", () => {
    expect(["A", "ACMEBUI2", "12345678"].every(isContactCodeShape)).toBe(true)
    expect(["", "ACMEBUILD", "acme", "AC ME", "ÄCME"].some(isContactCodeShape)).toBe(false)
  })
})

describe("contactCodeIssuer", () => {
  // Few bases, many names each: the case the issuer is for (an import of names sharing code bases).
  const name = FastCheck.constantFrom("Acme Builders", "Acme Builders Ltd", "Smith", "J Smith", "Ø", "")
  const code = FastCheck.oneof(
    FastCheck.constantFrom("ACMEBUIL", "SMITH", "JSMITH", "O", "CONTACT"),
    FastCheck.integer({ min: 2, max: 40 }).map((n) => contactCodeCandidate("ACMEBUIL", n)),
    FastCheck.integer({ min: 2, max: 40 }).map((n) => contactCodeCandidate("SMITH", n))
  )

  it.prop(
    "issues what generateContactCode gives one name after another, adding each code to the taken",
    [FastCheck.array(code, { maxLength: 60 }), FastCheck.array(name, { maxLength: 200 })],
    ([takenBefore, names]) => {
      const expectedTaken = new Set(takenBefore)
      const expected = names.map((n) => {
        const issued = generateContactCode(n, (candidate) => expectedTaken.has(candidate))
        expectedTaken.add(issued)
        return issued
      })
      const taken = new Set(takenBefore)
      const issue = contactCodeIssuer(taken)
      expect(names.map(issue)).toStrictEqual(expected)
      expect(taken).toStrictEqual(expectedTaken)
    }
  )

  it("skips the candidates an earlier name of the base found taken", () => {
    const tried: Array<string> = []
    class Watched extends Set<string> {
      override has(candidate: string) {
        tried.push(candidate)
        return super.has(candidate)
      }
    }
    const watched = new Watched(["SMITH", "SMITH2", "SMITH3"])
    const issue = contactCodeIssuer(watched)
    expect([issue("Smith"), issue("Smith"), issue("Smith")]).toEqual(["SMITH4", "SMITH5", "SMITH6"])
    // SMITH, 2, 3, 4 for the first; SMITH and 5, SMITH and 6 after it.
    expect(tried).toEqual(["SMITH", "SMITH2", "SMITH3", "SMITH4", "SMITH", "SMITH5", "SMITH", "SMITH6"])
  })
})
