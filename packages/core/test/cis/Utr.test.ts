import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Option } from "effect"
import { isValidUtr, normaliseUtr, Utr, utrCheckDigit } from "../../src/cis/Utr.js"
import { decode } from "./decode.js"

const message = "Must be a 10-digit UTR with a valid check digit, for example 2234567890"
const nineDigits = FastCheck.array(FastCheck.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }).map((ds) =>
  ds.join("")
)

describe("Utr", () => {
  it("accepts HMRC's valid examples", () => {
    for (const utr of ["2234567890", "1097172564", "2108834503"]) expect(isValidUtr(utr)).toBe(true)
  })

  it("refuses a wrong check digit, HMRC's on-screen example included", () => {
    for (const utr of ["1234567890", "5550000621", "1234567890K"]) expect(isValidUtr(utr)).toBe(false)
  })

  it("refuses any UTR starting with 0: the check digit is never 0", () => {
    expect(isValidUtr("0234567890")).toBe(false)
  })

  it("computes the worked examples' check digits", () => {
    expect(utrCheckDigit("234567890")).toBe(2)
    expect(utrCheckDigit("097172564")).toBe(1)
    expect(utrCheckDigit("550000621")).toBe(2)
  })

  it("normalises spaces, a leading or trailing K and the 13-digit form", () => {
    expect(normaliseUtr("22345 67890")).toEqual(Option.some("2234567890"))
    expect(normaliseUtr(" 2234567890K ")).toEqual(Option.some("2234567890"))
    expect(normaliseUtr("K2234567890")).toEqual(Option.some("2234567890"))
    expect(normaliseUtr("1097172564k")).toEqual(Option.some("1097172564"))
    expect(normaliseUtr("123 22345 67890")).toEqual(Option.some("2234567890"))
    expect(normaliseUtr("k1232234567890")).toEqual(Option.some("2234567890"))
  })

  it("refuses other shapes", () => {
    for (const input of ["", "223456789", "22345678901", "K2234567890K", "KK2234567890", "2234-567890", "22345678X0"]) {
      expect(normaliseUtr(input)).toEqual(Option.none())
    }
  })

  it("decodes to the 10 digits and fails with a sentence", () => {
    expect(decode(Utr)("k 22345 67890")).toEqual(Either.right("2234567890"))
    expect(decode(Utr)("1234567890")).toEqual(Either.left([message]))
    expect(decode(Utr)("not a utr")).toEqual(Either.left([message]))
  })

  it.prop(
    "a UTR with the computed check digit is valid, and with any other first digit is not",
    [nineDigits, FastCheck.integer({ min: 0, max: 9 })],
    ([rest, other]) => {
      const check = utrCheckDigit(rest)
      expect(isValidUtr(`${check}${rest}`)).toBe(true)
      expect(isValidUtr(`${other}${rest}`)).toBe(other === check)
    }
  )

  it.prop(
    "every accepted spelling of a valid UTR decodes to the same digits",
    [nineDigits, FastCheck.constantFrom("", "K", "k"), FastCheck.boolean(), FastCheck.boolean()],
    ([rest, k, leading, prefixed]) => {
      const utr = `${utrCheckDigit(rest)}${rest}`
      const body = `${prefixed ? "123 " : ""}${utr.slice(0, 5)} ${utr.slice(5)}`
      expect(decode(Utr)(leading ? k + body : body + k)).toEqual(Either.right(utr))
    }
  )
})
