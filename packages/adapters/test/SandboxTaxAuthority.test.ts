import { sandboxAnswer, SandboxTaxAuthority } from "@cisbook/adapters/taxauthority/SandboxTaxAuthority"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { utrCheckDigit } from "@cisbook/core/cis/Utr"
import { TaxAuthority } from "@cisbook/core/ports/TaxAuthority"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { sampleCisScheme } from "@cisbook/testkit/CisSchemeFixtures"

/** A valid UTR whose last digit is `last`. */
const utrEndingIn = (last: number) => {
  const nine = `23456789${last}`
  return `${utrCheckDigit(nine)}${nine}`
}

const soleTrader = (fields: Record<string, string>) =>
  Schema.decodeUnknownSync(CisDetails)({ type: "SoleTrader", firstName: "Ann", lastName: "Ash", ...fields })

describe("the sandbox tax authority", () => {
  it("matches a complete identity, the UTR's last digit picking the treatment", () => {
    const treatments = Array.from({ length: 10 }, (_, digit) => {
      const answer = sandboxAnswer(soleTrader({ utr: utrEndingIn(digit) }))
      return answer._tag === "Matched" ? answer.taxTreatment : answer.message
    })
    expect(treatments).toEqual(["Net", "Net", "Net", "Net", "Net", "Net", "Net", "Gross", "Gross", "Unmatched"])
  })

  it("gives a V and 10 digits, the same for the same identity, with /A when unmatched", () => {
    const net = sandboxAnswer(soleTrader({ utr: utrEndingIn(3) }))
    const unmatched = sandboxAnswer(soleTrader({ utr: utrEndingIn(9) }))
    expect(net).toMatchObject({ _tag: "Matched", verificationNumber: expect.stringMatching(/^V\d{10}$/) })
    expect(unmatched).toMatchObject({ _tag: "Matched", verificationNumber: expect.stringMatching(/^V\d{10}\/A$/) })
    expect(sandboxAnswer(soleTrader({ utr: utrEndingIn(3) }))).toEqual(net)
    expect(sandboxAnswer(soleTrader({ utr: utrEndingIn(4) }))).not.toEqual(net)
  })

  it("matches an identity without a UTR (a sole trader by NI number, a company by number) as Unmatched", () => {
    expect(sandboxAnswer(soleTrader({ niNumber: "AB123456C" }))).toMatchObject({ taxTreatment: "Unmatched" })
    const company = Schema.decodeUnknownSync(CisDetails)({
      type: "Company",
      tradingName: "Co",
      companyNumber: "SC123456"
    })
    expect(sandboxAnswer(company)).toMatchObject({ taxTreatment: "Unmatched" })
  })

  it("refuses a last name or trading name Error, and an incomplete identity, with a message", () => {
    expect(sandboxAnswer(soleTrader({ lastName: "Error", utr: utrEndingIn(1) }))).toEqual({
      _tag: "Refused",
      message: "The details given do not match HMRC's records for this subcontractor."
    })
    const trust = Schema.decodeUnknownSync(CisDetails)({ type: "Trust", tradingName: "error", utr: utrEndingIn(1) })
    expect(sandboxAnswer(trust)._tag).toBe("Refused")
    expect(sandboxAnswer(soleTrader({}))).toEqual({
      _tag: "Refused",
      message: "A SoleTrader cannot be verified without: utr or niNumber."
    })
  })

  it.effect("answers through the port from the subcontractor's identity", () =>
    Effect.gen(function* () {
      const subcontractor = soleTrader({ utr: utrEndingIn(7) })
      const answer = yield* (yield* TaxAuthority).verify({
        contractor: { utr: null, scheme: sampleCisScheme },
        subcontractor
      })
      expect(answer).toEqual(sandboxAnswer(subcontractor))
      expect(answer).toMatchObject({ taxTreatment: "Gross" })
    }).pipe(Effect.provide(SandboxTaxAuthority))
  )
})
