import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { isValidUkPostcode, normalisePostcode, UkPostcode } from "../../src/cis/Postcode.js"
import { decode } from "./decode.js"

describe("UkPostcode", () => {
  it("accepts every standard format and GIR 0AA", () => {
    for (const postcode of [
      "SW1A 1AA",
      "sw1a1aa",
      "M1 1AE",
      "B33 8TH",
      "CR2 6XH",
      "DN55 1PT",
      "EC1A 1BB",
      "W1A 0AX",
      "GIR 0AA"
    ]) {
      expect(isValidUkPostcode(postcode)).toBe(true)
    }
  })

  it("normalises to upper case with one space before the inward code", () => {
    expect(normalisePostcode("sw1a1aa")).toBe("SW1A 1AA")
    expect(normalisePostcode("  m1   1ae ")).toBe("M1 1AE")
    expect(decode(UkPostcode)("gir0aa")).toEqual(Either.right("GIR 0AA"))
  })

  it("refuses malformed postcodes and letters never used in their position", () => {
    for (const postcode of [
      "",
      "12345",
      "SW1A 1A",
      "SW1A",
      "QQ1 1AA",
      "VA1 1AA",
      "AZ1 1AA",
      "SW1A 1CA",
      "SW1A 1AAA",
      "BFPO 1234"
    ]) {
      expect(isValidUkPostcode(postcode)).toBe(false)
    }
  })

  it("fails to decode with a sentence", () => {
    expect(decode(UkPostcode)("12345")).toEqual(Either.left(["Must be a UK postcode, for example SW1A 1AA"]))
  })
})
