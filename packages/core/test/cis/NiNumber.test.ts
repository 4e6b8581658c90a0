import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { isValidNiNumber, NiNumber, normaliseNiNumber } from "../../src/cis/NiNumber.js"
import { decode } from "./decode.js"

const message =
  "Must be a National Insurance number: 2 letters, 6 digits and a final letter A, B, C or D, for example AB123456C"

describe("NiNumber", () => {
  it("accepts a well-formed number with each suffix A to D", () => {
    for (const suffix of ["A", "B", "C", "D"]) expect(isValidNiNumber(`AB123456${suffix}`)).toBe(true)
  })

  it("normalises spaces and case", () => {
    expect(normaliseNiNumber(" ab 12 34 56 c ")).toBe("AB123456C")
    expect(decode(NiNumber)("ab 12 34 56 c")).toEqual(Either.right("AB123456C"))
  })

  it("refuses D, F, I, Q, U and V as the first letter", () => {
    for (const letter of ["D", "F", "I", "Q", "U", "V"]) expect(isValidNiNumber(`${letter}A123456A`)).toBe(false)
  })

  it("refuses D, F, I, Q, U, V and O as the second letter", () => {
    for (const letter of ["D", "F", "I", "Q", "U", "V", "O"]) expect(isValidNiNumber(`A${letter}123456A`)).toBe(false)
  })

  it("accepts O as the first letter", () => {
    expect(isValidNiNumber("OA123456A")).toBe(true)
  })

  it("refuses the unused prefixes", () => {
    for (const prefix of ["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"])
      expect(isValidNiNumber(`${prefix}123456A`)).toBe(false)
  })

  it("requires a suffix A to D", () => {
    expect(isValidNiNumber("AB123456")).toBe(false)
    expect(isValidNiNumber("AB123456E")).toBe(false)
    expect(isValidNiNumber("AB123456 ")).toBe(false)
  })

  it("refuses other shapes, temporary reference numbers included", () => {
    for (const input of ["", "AB12345C", "AB1234567C", "A1123456C", "11 a1 11 11", "QQ 12 34 56 C"]) {
      expect(isValidNiNumber(input)).toBe(false)
    }
  })

  it("fails to decode with a sentence", () => {
    expect(decode(NiNumber)("TN123456A")).toEqual(Either.left([message]))
  })
})
