import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import {
  CisDetails,
  type CisDetailsEncoded,
  emptySoleTrader,
  MAX_CIS_TEXT_LENGTH,
  missingForType
} from "../../src/cis/CisDetails.js"
import { decodeInput } from "../../src/Validation.js"

const decodeSync = Schema.decodeUnknownSync(CisDetails)
const details = (input: CisDetailsEncoded) => decodeSync(input)

describe("CisDetails", () => {
  it("decodes omitted, null and blank members to null, trimming the rest", () => {
    const decoded = decodeSync({ type: "SoleTrader", title: null, firstName: "  Ada ", lastName: "   " })
    expect(decoded).toEqual(new CisDetails({ type: "SoleTrader", firstName: "Ada" }))
    expect(decoded.secondName).toBeNull()
    expect(decoded.lastName).toBeNull()
    expect(decodeSync({ type: "Trust", utr: undefined, niNumber: "" }).utr).toBeNull()
  })

  it("refuses a name member longer than the bound, naming it", () =>
    Effect.gen(function* () {
      const atBound = "x".repeat(MAX_CIS_TEXT_LENGTH)
      expect(decodeSync({ type: "SoleTrader", title: atBound }).title).toBe(atBound)
      const error = yield* Effect.flip(
        decodeInput(CisDetails)({ type: "SoleTrader", title: "x".repeat(1_000_000), tradingName: `${atBound}y` })
      )
      expect(error.errors).toEqual({
        title: [`Must be at most ${MAX_CIS_TEXT_LENGTH} characters`],
        tradingName: [`Must be at most ${MAX_CIS_TEXT_LENGTH} characters`]
      })
    }).pipe(Effect.runPromise))

  it("normalises the identity codes", () => {
    const decoded = decodeSync({
      type: "Company",
      utr: "k 22345 67890",
      niNumber: "ab123456c",
      companyNumber: "sc 1234"
    })
    expect([decoded.utr, decoded.niNumber, decoded.companyNumber]).toEqual(["2234567890", "AB123456C", "SC001234"])
  })

  it("encodes every member, absent ones as null", () => {
    expect(Schema.encodeSync(CisDetails)(emptySoleTrader)).toEqual({
      type: "SoleTrader",
      title: null,
      firstName: null,
      secondName: null,
      lastName: null,
      tradingName: null,
      utr: null,
      niNumber: null,
      companyNumber: null,
      partnerUtr: null
    })
  })

  it.effect("names each invalid member with its own message", () =>
    Effect.gen(function* () {
      const failure = yield* Effect.flip(
        decodeInput(CisDetails)({
          type: "Cooperative",
          utr: "1234567890",
          niNumber: "TN123456A",
          companyNumber: "123456789",
          title: 5
        })
      )
      expect(failure.errors).toEqual({
        type: ["Must be one of SoleTrader, Partnership, Company or Trust"],
        title: ["Must be a string or null"],
        utr: ["Must be a 10-digit UTR with a valid check digit, for example 2234567890"],
        niNumber: [
          "Must be a National Insurance number: 2 letters, 6 digits and a final letter A, B, C or D, for example AB123456C"
        ],
        companyNumber: [
          "Must be a Companies House number: 8 digits, or 2 letters and 6 digits, for example 01234567 or SC123456"
        ]
      })
    })
  )
})

describe("missingForType", () => {
  it("an empty sole trader needs names and a UTR or NINO", () => {
    expect(missingForType(emptySoleTrader)).toEqual(["firstName", "lastName", "utr or niNumber"])
  })

  it("a sole trader is complete with either a UTR or a NINO", () => {
    const named = { type: "SoleTrader", firstName: "Ada", lastName: "Lovelace" } as const
    expect(missingForType(details({ ...named, utr: "2234567890" }))).toEqual([])
    expect(missingForType(details({ ...named, niNumber: "AB123456C" }))).toEqual([])
    expect(missingForType(details({ ...named, companyNumber: "SC123456" }))).toEqual(["utr or niNumber"])
  })

  it("a company needs a trading name and a UTR or company number", () => {
    expect(missingForType(details({ type: "Company" }))).toEqual(["tradingName", "utr or companyNumber"])
    expect(missingForType(details({ type: "Company", tradingName: "Acme", companyNumber: "SC123456" }))).toEqual([])
    expect(missingForType(details({ type: "Company", tradingName: "Acme", utr: "2234567890" }))).toEqual([])
    expect(missingForType(details({ type: "Company", tradingName: "Acme", niNumber: "AB123456C" }))).toEqual([
      "utr or companyNumber"
    ])
  })

  it("a trust needs a trading name and a UTR", () => {
    expect(missingForType(details({ type: "Trust" }))).toEqual(["tradingName", "utr"])
    expect(missingForType(details({ type: "Trust", tradingName: "Acme", companyNumber: "SC123456" }))).toEqual(["utr"])
    expect(missingForType(details({ type: "Trust", tradingName: "Acme", utr: "2234567890" }))).toEqual([])
  })

  it("a partnership needs the firm's trading name and UTR and its nominated partner's name and UTR or NINO", () => {
    const firm = { type: "Partnership", tradingName: "Stone & Stone", utr: "4345678912" } as const
    expect(missingForType(details({ type: "Partnership" }))).toEqual([
      "tradingName",
      "utr",
      "firstName",
      "lastName",
      "partnerUtr or niNumber"
    ])
    expect(missingForType(details(firm))).toEqual(["firstName", "lastName", "partnerUtr or niNumber"])
    const partner = { firstName: "Kim", lastName: "Stone" }
    expect(missingForType(details({ ...firm, ...partner }))).toEqual(["partnerUtr or niNumber"])
    expect(missingForType(details({ ...firm, ...partner, partnerUtr: "2234567890" }))).toEqual([])
    expect(missingForType(details({ ...firm, ...partner, niNumber: "AB123456C" }))).toEqual([])
  })

  it("a partnerUtr is checked like a UTR and stored as its 10 digits", () => {
    expect(details({ type: "Partnership", partnerUtr: "K 2234 567 890" }).partnerUtr).toBe("2234567890")
    expect(() => details({ type: "Partnership", partnerUtr: "2234567891" })).toThrow(/partnerUtr/)
  })

  it("treats blank values as missing in plain data too", () => {
    expect(
      missingForType({
        type: "Trust",
        firstName: null,
        lastName: null,
        tradingName: " ",
        utr: "",
        niNumber: null,
        companyNumber: null,
        partnerUtr: null
      })
    ).toEqual(["tradingName", "utr"])
  })
})
