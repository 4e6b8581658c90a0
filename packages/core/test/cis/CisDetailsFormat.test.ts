import { assert, describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { CisDetailsFormat } from "../../src/cis/CisDetailsFormat.js"

describe("CisDetailsFormat", () => {
  it("decodes to plain, normalised members, every one present", () => {
    expect(
      Schema.decodeUnknownSync(CisDetailsFormat)({
        type: "Company",
        companyNumber: "sc 1234",
        utr: "k2234567890",
        title: " "
      })
    ).toEqual({
      type: "Company",
      title: null,
      firstName: null,
      secondName: null,
      lastName: null,
      tradingName: null,
      utr: "2234567890",
      niNumber: null,
      companyNumber: "SC001234",
      partnerUtr: null
    })
  })

  it("reports each invalid member under its own name", () => {
    const result = Schema.decodeUnknownEither(Schema.Struct({ cisDetails: CisDetailsFormat }), { errors: "all" })({
      cisDetails: { type: "SoleTrader", utr: "1234567890", niNumber: "QQ123456C", companyNumber: "A1" }
    })
    assert(Either.isLeft(result))
    const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
    expect(issues.map((issue) => issue.path.join("."))).toEqual([
      "cisDetails.utr",
      "cisDetails.niNumber",
      "cisDetails.companyNumber"
    ])
  })

  it("refuses names HMRC's forms cannot take under their own names, with HMRC's rule", () => {
    const result = Schema.decodeUnknownEither(Schema.Struct({ cisDetails: CisDetailsFormat }), { errors: "all" })({
      cisDetails: { type: "SoleTrader", firstName: "Mary Ann", lastName: "S".repeat(36), tradingName: "Ω Ltd" }
    })
    assert(Either.isLeft(result))
    const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
    expect(issues.map((issue) => issue.path.join("."))).toEqual(["cisDetails.lastName", "cisDetails.tradingName"])
    expect(issues[0]?.message).toMatch(/^HMRC takes a surname of 1–35/)
    expect(issues[1]?.message).toMatch(/cannot take "Ω"/)
  })
})
