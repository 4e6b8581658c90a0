import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { CisDetails } from "../../src/cis/CisDetails.js"
import {
  FORENAME_RULE,
  hmrcCharacters,
  hmrcNameProblems,
  hmrcPersonName,
  hmrcTitle,
  hmrcTradingName,
  inHmrcNameForms,
  SURNAME_RULE,
  TRADING_NAME_RULE
} from "../../src/cis/HmrcNames.js"

const name = (fields: {
  title?: string | null
  firstName?: string | null
  secondName?: string | null
  lastName?: string | null
}) => hmrcPersonName({ title: null, firstName: null, secondName: null, lastName: null, ...fields })

const named = (fields: Partial<Parameters<typeof hmrcNameProblems>[0]>) =>
  hmrcNameProblems({ title: null, firstName: null, secondName: null, lastName: null, tradingName: null, ...fields })

describe("names in HMRC's forms", () => {
  const persons: ReadonlyArray<readonly [string, Parameters<typeof name>[0], ReturnType<typeof name>]> = [
    [
      "a first name of two words is two forenames",
      { firstName: "Mary Ann", lastName: "Smith" },
      { title: null, forenames: ["Mary", "Ann"], surname: "Smith" }
    ],
    [
      "a second name is the second forename",
      { firstName: "Mary", secondName: "Ann", lastName: "Smith" },
      { title: null, forenames: ["Mary", "Ann"], surname: "Smith" }
    ],
    [
      "HMRC holds two forenames: a third is left out",
      { firstName: "Mary Ann", secondName: "Louise", lastName: "Smith" },
      { title: null, forenames: ["Mary", "Ann"], surname: "Smith" }
    ],
    [
      "runs of spaces are one",
      { firstName: "  Mary   Ann ", lastName: "Le  Fevre" },
      { title: null, forenames: ["Mary", "Ann"], surname: "Le Fevre" }
    ],
    [
      "Dr. is HMRC's Dr",
      { title: "Dr.", firstName: "Jo", lastName: "Bloggs" },
      { title: "Dr", forenames: ["Jo"], surname: "Bloggs" }
    ],
    [
      "Professor is longer than HMRC's title: left out",
      { title: "Professor", firstName: "Jo", lastName: "Bloggs" },
      { title: null, forenames: ["Jo"], surname: "Bloggs" }
    ],
    [
      "a title of two words is left out",
      { title: "Rt Hon", firstName: "Jo", lastName: "Bloggs" },
      { title: null, forenames: ["Jo"], surname: "Bloggs" }
    ],
    [
      "a typographic apostrophe is an ASCII one",
      { title: "Mrs", firstName: "Siobhán", lastName: "O’Brien" },
      { title: "Mrs", forenames: ["Siobhan"], surname: "O'Brien" }
    ],
    [
      "a typographic dash is a hyphen, accents are dropped",
      { firstName: "Zoë", secondName: "Anne–Marie", lastName: "Núñez—García" },
      { title: null, forenames: ["Zoe", "Anne-Marie"], surname: "Nunez-Garcia" }
    ],
    [
      "letters without a decomposition are spelled in plain letters",
      { firstName: "Łukasz", lastName: "Straße" },
      { title: null, forenames: ["Lukasz"], surname: "Strasse" }
    ],
    [
      "an initial's full stop is dropped",
      { firstName: "J.", lastName: "Smith" },
      {
        title: null,
        forenames: ["J"],
        surname: "Smith"
      }
    ],
    ["no forename: no name", { lastName: "Smith" }, null],
    ["no surname: no name", { firstName: "Jo" }, null]
  ]
  for (const [what, input, expected] of persons) it(what, () => expect(name(input)).toEqual(expected))

  it("a title is never refused", () => {
    for (const title of ["Professor", "Dr.", "Sir ☃", "Herr Doktor", "-"]) expect(named({ title })).toEqual({})
    expect(hmrcTitle("Mx")).toBe("Mx")
    expect(hmrcTitle("Herr Doktor")).toBeNull()
  })

  it("trading names keep HMRC's punctuation and lose accents and typographic marks", () => {
    expect(hmrcTradingName("Café Ltd")).toBe("Cafe Ltd")
    expect(hmrcTradingName("O’Brien & Daughters (Roofing) Ltd")).toBe("O'Brien & Daughters (Roofing) Ltd")
    expect(hmrcTradingName("“Best” Builders – £1 jobs")).toBe('"Best" Builders - £1 jobs')
    expect(hmrcCharacters("Ø\tstergaard  Æble")).toBe("O stergaard AEble")
  })

  const problems: ReadonlyArray<readonly [string, Parameters<typeof named>[0], Record<string, RegExp>]> = [
    ["a 36-letter first name", { firstName: "A".repeat(36) }, { firstName: /^HMRC takes a forename of 1–35/ }],
    ["a forename with a digit", { firstName: "Jo2" }, { firstName: /cannot take "2"/ }],
    ["a forename in another alphabet", { firstName: "Дмитрий" }, { firstName: /cannot take "Д"/ }],
    ["a second name of 36 letters", { secondName: "B".repeat(36) }, { secondName: /1–35 letters/ }],
    ["a 36-character surname", { lastName: "C".repeat(36) }, { lastName: /^HMRC takes a surname of 1–35/ }],
    ["a surname with !", { lastName: "O'Brien!" }, { lastName: /cannot take "!"/ }],
    ["a 57-character trading name", { tradingName: "D".repeat(57) }, { tradingName: /^HMRC takes a name of 1–56/ }],
    ["a trading name with a pipe", { tradingName: "A | B Ltd" }, { tradingName: /cannot take "\|"/ }],
    ["a trading name with an emoji", { tradingName: "Bricks 🧱" }, { tradingName: /cannot take "🧱"/ }]
  ]
  for (const [what, input, expected] of problems)
    it(`refuses ${what}, with HMRC's rule`, () => {
      const found = named(input)
      expect(Object.keys(found)).toEqual(Object.keys(expected))
      for (const [member, pattern] of Object.entries(expected))
        expect(found[member as keyof typeof found]).toMatch(pattern)
    })

  it("takes what fits once in HMRC's form", () => {
    expect(
      named({
        title: "Professor",
        firstName: "Mary Ann",
        secondName: "Zoë",
        lastName: "O’Brien-Smith & Co",
        tradingName: "Café Ltd"
      })
    ).toEqual({})
    expect(named({ firstName: "A".repeat(35), lastName: "C".repeat(35), tradingName: "D".repeat(56) })).toEqual({})
    // Typographic forms count as the one character they become.
    expect(named({ lastName: `${"C".repeat(34)}’` })).toEqual({})
  })

  it("the rules are HMRC's schema's", () => {
    expect(FORENAME_RULE).toContain("1–35")
    expect(SURNAME_RULE).toContain("1–35")
    expect(TRADING_NAME_RULE).toContain("1–56")
  })

  it("refuses CIS details at entry naming each member that HMRC cannot take", () => {
    const decode = Schema.decodeUnknownEither(inHmrcNameForms(CisDetails), { errors: "all" })
    const refused = decode({ type: "SoleTrader", firstName: "Jo", lastName: "C".repeat(36), tradingName: "A | B" })
    expect(Either.isLeft(refused)).toBe(true)
    if (Either.isLeft(refused)) {
      const issues = ParseResult.ArrayFormatter.formatErrorSync(refused.left)
      expect(issues.map((i) => i.path)).toEqual([["lastName"], ["tradingName"]])
      expect(issues[0]?.message).toMatch(/^HMRC takes a surname/)
    }
    expect(Either.isRight(decode({ type: "SoleTrader", title: "Professor", firstName: "Mary Ann" }))).toBe(true)
  })
})
