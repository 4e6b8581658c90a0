import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import { CisDetails, MAX_CIS_TEXT_LENGTH } from "../../src/cis/CisDetails.js"
import { utrCheckDigit } from "../../src/cis/Utr.js"
import { type CisDetailsText, validCisDetails } from "../../src/cis/ValidCisDetails.js"

const decodeSchema = Schema.decodeUnknownEither(CisDetails)

const padded = (values: FastCheck.Arbitrary<string>) =>
  FastCheck.tuple(FastCheck.constantFrom("", " ", "\t "), values, FastCheck.constantFrom("", "  ")).map(
    ([before, value, after]) => `${before}${value}${after}`
  )

const digits = (length: number) =>
  FastCheck.array(FastCheck.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((ds) =>
    ds.join("")
  )

const validUtr = digits(9).map((nine) => `${utrCheckDigit(nine)}${nine}`)
const utr = padded(
  FastCheck.oneof(
    validUtr,
    validUtr.map((u) => `${u.slice(0, 5)} ${u.slice(5)}`),
    validUtr.map((u) => `k${u}`),
    FastCheck.tuple(digits(3), validUtr).map(([prefix, u]) => `${prefix}${u}`),
    digits(10),
    FastCheck.constant("2234567890".repeat(25)),
    FastCheck.string()
  )
)

const ninoLetters = FastCheck.constantFrom("AB", "ab", "OA", "GB", "DA", "ZZ", "CE")
const niNumber = padded(
  FastCheck.oneof(
    FastCheck.tuple(ninoLetters, digits(6), FastCheck.constantFrom("A", "d", "E", "")).map(
      ([letters, six, suffix]) => `${letters}${six}${suffix}`
    ),
    FastCheck.tuple(digits(2), digits(2)).map(([a, b]) => `AB ${a} ${b} 56 C`),
    FastCheck.string()
  )
)

const companyNumber = padded(
  FastCheck.oneof(
    digits(8),
    FastCheck.integer({ min: 1, max: 9_999_999 }).map(String),
    FastCheck.tuple(FastCheck.constantFrom("SC", "ni", "OC", "S"), digits(5)).map(([prefix, five]) => prefix + five),
    FastCheck.string()
  )
)

const member = (values: FastCheck.Arbitrary<string>) =>
  FastCheck.oneof({ arbitrary: values, weight: 5 }, { arbitrary: FastCheck.constant(null), weight: 1 })

const name = padded(
  FastCheck.oneof(
    FastCheck.constantFrom("", "Ada", "Ada Lovelace"),
    FastCheck.integer({ min: MAX_CIS_TEXT_LENGTH - 2, max: MAX_CIS_TEXT_LENGTH + 1 }).map((n) => "x".repeat(n)),
    FastCheck.string()
  )
)

const detailsText: FastCheck.Arbitrary<CisDetailsText> = FastCheck.record({
  type: FastCheck.constantFrom("SoleTrader", "Partnership", "Company", "Trust", "Charity", ""),
  title: member(name),
  firstName: member(name),
  secondName: member(name),
  lastName: member(name),
  tradingName: member(name),
  utr: member(FastCheck.oneof(FastCheck.constant(""), utr)),
  niNumber: member(FastCheck.oneof(FastCheck.constant(""), niNumber)),
  companyNumber: member(FastCheck.oneof(FastCheck.constant(""), companyNumber)),
  partnerUtr: member(FastCheck.oneof(FastCheck.constant(""), utr))
})

const blank: CisDetailsText = {
  type: "SoleTrader",
  title: "",
  firstName: "",
  secondName: "",
  lastName: "",
  tradingName: "",
  utr: "",
  niNumber: "",
  companyNumber: "",
  partnerUtr: ""
}

describe("validCisDetails", () => {
  it.prop(
    "accepts exactly what the CisDetails schema accepts, and gives the members it decodes to",
    [detailsText],
    ([details]) => {
      const fast = validCisDetails(details)
      const decoded = Either.map(decodeSchema(details), (cis) => ({ ...cis }))
      expect(fast).toEqual(Either.getOrUndefined(decoded))
    },
    { fastCheck: { numRuns: 3_000 } }
  )

  it("decodes a complete sole trader as the schema does, codes normalised", () => {
    const details: CisDetailsText = {
      ...blank,
      type: "SoleTrader",
      firstName: " Ada ",
      lastName: "Lovelace",
      utr: "k 22345 67890",
      niNumber: "ab 12 34 56 c",
      companyNumber: "1234"
    }
    expect(validCisDetails(details)).toEqual({
      type: "SoleTrader",
      title: null,
      firstName: "Ada",
      secondName: null,
      lastName: "Lovelace",
      tradingName: null,
      utr: "2234567890",
      niNumber: "AB123456C",
      companyNumber: "00001234",
      partnerUtr: null
    })
  })

  it("leaves details with any invalid member to the schema", () => {
    const valid: CisDetailsText = {
      ...blank,
      type: "Company",
      tradingName: "Brick Ltd",
      utr: "2234567890",
      companyNumber: "SC123456"
    }
    expect(validCisDetails(valid)).toBeDefined()
    expect(validCisDetails({ ...valid, utr: "1234567890" })).toBeUndefined()
    expect(validCisDetails({ ...valid, companyNumber: "SC12345678" })).toBeUndefined()
    expect(validCisDetails({ ...valid, niNumber: "GB123456A" })).toBeUndefined()
    expect(validCisDetails({ ...valid, partnerUtr: "1234567890" })).toBeUndefined()
    expect(validCisDetails({ ...valid, tradingName: "z".repeat(MAX_CIS_TEXT_LENGTH + 1) })).toBeUndefined()
    expect(validCisDetails({ ...valid, type: "Charity" })).toBeUndefined()
  })
})
