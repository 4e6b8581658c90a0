import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { FilingCheck } from "@cisbook/core/taxauthority/FilingCheck"
import type { ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import type { VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { expect, type Vitest } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { sampleCisScheme } from "../CisSchemeFixtures.js"
import { submittedDeclarations } from "../DeclarationsFixtures.js"

// Decoded without the entry check, as details stored before HMRC's name rules were enforced are.
const details = Schema.decodeSync(CisDetails)

const maryAnn = details({
  type: "SoleTrader",
  title: "Professor",
  firstName: "Mary Ann",
  lastName: "O’Brien",
  utr: "2234567890",
  niNumber: "AB123456C"
})
const cafe = details({ type: "Company", tradingName: "Café Ltd", utr: "1097172564", companyNumber: "SC123456" })
const partnership = details({
  type: "Partnership",
  tradingName: "Stone & Stone",
  utr: "4345678912",
  title: "Dr.",
  firstName: "Kim",
  lastName: "Stone",
  partnerUtr: "2234567890",
  niNumber: "AB123456C"
})
const tooLong = details({ type: "SoleTrader", firstName: "Jo", lastName: "C".repeat(36), utr: "2234567890" })
const longFirm = details({ type: "Company", tradingName: "D".repeat(57), utr: "1097172564" })

const line = (code: string, cisDetails: CisDetails) =>
  new ReturnLine({
    contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
    contactCode: code,
    name: code,
    utr: cisDetails.utr,
    verificationNumber: "V1234567890",
    taxTreatment: "Net",
    grossAmount: 100_000,
    materials: 0,
    deducted: 20_000,
    cisDetails
  })

const submission = (lines: ReadonlyArray<ReturnLine>): ReturnSubmission => ({
  id: MonthlyReturnId.make("0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d"),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme: sampleCisScheme }),
  lines,
  nilReturn: false,
  inactive: false,
  declarations: submittedDeclarations()
})

const verification = (subcontractor: CisDetails): VerificationRequest => ({
  contractor: { utr: "8456789123", scheme: sampleCisScheme },
  subcontractor
})

/**
 * The check against HMRC's schemas, as every implementation answers: names that take HMRC's forms
 * pass (two-word first names, typographic apostrophes, accents, titles HMRC does not take), a
 * partnership verified through its nominated partner passes, and what HMRC's schemas refuse is
 * reported on the line it is in, naming HMRC's element.
 */
export const filingCheckContract = (it: Vitest.MethodsNonLive<FilingCheck>) => {
  it.effect("a return whose names take HMRC's forms passes", () =>
    Effect.gen(function* () {
      const check = yield* FilingCheck
      const lines = [line("MARYANN", maryAnn), line("CAFE", cafe), line("STONE", partnership)]
      expect(yield* check.checkReturn(submission(lines))).toEqual([])
    })
  )

  it.effect("what HMRC's schema refuses is on its line, naming the element, every line in one check", () =>
    Effect.gen(function* () {
      const check = yield* FilingCheck
      const lines = [line("MARYANN", maryAnn), line("CAFE", cafe), line("LONG", tooLong), line("FIRM", longFirm)]
      const problems = yield* check.checkReturn(submission(lines))
      expect(problems.map((p) => [p.line, p.element])).toEqual([
        [2, "Sur"],
        [3, "TradingName"]
      ])
      expect(problems.every((p) => p.message.length > 0)).toBe(true)
    })
  )

  it.effect("a partnership's verification through its nominated partner passes, and so does a sole trader's", () =>
    Effect.gen(function* () {
      const check = yield* FilingCheck
      expect(yield* check.checkVerification(verification(partnership))).toEqual([])
      expect(yield* check.checkVerification(verification(maryAnn))).toEqual([])
      expect(yield* check.checkVerification(verification(cafe))).toEqual([])
    })
  )

  it.effect("a verification HMRC's schema refuses names the element", () =>
    Effect.gen(function* () {
      const check = yield* FilingCheck
      const problems = yield* check.checkVerification(verification(longFirm))
      expect(problems.map((p) => [p.line, p.element])).toEqual([[null, "TradingName"]])
    })
  )
}
