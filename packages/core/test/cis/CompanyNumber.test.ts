import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { CompanyNumber, isValidCompanyNumber, normaliseCompanyNumber } from "../../src/cis/CompanyNumber.js"
import { decode } from "./decode.js"

const message =
  "Must be a Companies House number: 8 digits, or 2 letters and 6 digits, for example 01234567 or SC123456"

describe("CompanyNumber", () => {
  it("accepts 8 digits and 2 letters + 6 digits", () => {
    for (const crn of ["00445790", "12674479", "SC123456", "NI012345", "OC301234", "SC001234"]) {
      expect(isValidCompanyNumber(crn)).toBe(true)
    }
  })

  it("pads a numeric value to 8 digits", () => {
    expect(normaliseCompanyNumber("445790")).toBe("00445790")
    expect(normaliseCompanyNumber("1")).toBe("00000001")
    expect(normaliseCompanyNumber("1267447 9")).toBe("12674479")
  })

  it("pads the digits after a prefix to 6, never the prefix", () => {
    expect(normaliseCompanyNumber("SC1234")).toBe("SC001234")
    expect(normaliseCompanyNumber("sc 1234")).toBe("SC001234")
    expect(normaliseCompanyNumber("oc1")).toBe("OC000001")
    expect(normaliseCompanyNumber("sc123456")).toBe("SC123456")
  })

  it("refuses other shapes, including the forms HMRC's CIS schema cannot carry", () => {
    for (const input of [
      "",
      "SC",
      "123456789",
      "SC1234567",
      "S1234567",
      "ABC12345",
      "NI12345A",
      "R0000013",
      "SC12345X"
    ]) {
      expect(isValidCompanyNumber(input)).toBe(false)
    }
  })

  it("decodes to the stored form and fails with a sentence", () => {
    expect(decode(CompanyNumber)(" sc 1234 ")).toEqual(Either.right("SC001234"))
    expect(decode(CompanyNumber)("123456789")).toEqual(Either.left([message]))
  })
})
