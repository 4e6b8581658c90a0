import { ContactId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { cisStatement, statementFileName } from "@cisbook/core/returns/CisStatement"
import { MonthlyReturn, ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { sampleCisScheme } from "@cisbook/testkit/CisSchemeFixtures"
import { pdfText } from "@cisbook/testkit/PdfText"
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cisStatementPdf } from "../src/documents/CisStatementPdf.js"
import { storedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"

const line = (taxTreatment: "Net" | "Unmatched", verificationNumber: string) =>
  new ReturnLine({
    contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
    contactCode: "ACMEROOF",
    name: "Acme Roofing Ltd",
    utr: "6456789012",
    verificationNumber,
    taxTreatment,
    grossAmount: 123456789,
    materials: 23456789,
    deducted: taxTreatment === "Net" ? 20000000 : 30000000
  })

const june = (l: ReturnLine) =>
  new MonthlyReturn({
    id: MonthlyReturnId.make("00000000-0000-4000-8000-000000000002"),
    tenantId: TenantId.make("00000000-0000-4000-8000-000000000003"),
    periodEnd: "2026-06-05",
    status: "Accepted",
    contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme: sampleCisScheme }),
    lines: [l],
    nilReturn: false,
    inactive: false,
    declarations: storedDeclarations(new Date("2026-06-10T10:00:00Z")),
    submittedAt: new Date("2026-06-10T10:00:00Z"),
    acceptedAt: new Date("2026-06-10T10:01:00Z"),
    rejectionReason: null,
    invoiced: false
  })

describe("the payment and deduction statement PDF", () => {
  it.effect("carries the contractor, the tax month, the subcontractor and the amounts, in pounds", () =>
    Effect.gen(function* () {
      const statement = cisStatement(june(line("Net", "V1234567890")), line("Net", "V1234567890"))
      expect(statementFileName(statement)).toBe("statement-ACMEROOF-2026-06-05.pdf")
      const pdf = yield* cisStatementPdf(statement)
      expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-")
      const text = (yield* pdfText(pdf)).replace(/\s+/g, " ")
      for (const expected of [
        "Payment and deduction statement",
        "Lovelace Builders Ltd",
        "Employer's reference: 123/AB45678",
        "UTR: 8456789123",
        "Tax month ending 5 June 2026",
        "Payments made from 6 May 2026 to 5 June 2026",
        "Acme Roofing Ltd",
        "UTR: 6456789012",
        "Gross amount paid (excluding VAT) £1,234,567.89",
        "Less cost of materials £234,567.89",
        "Amount liable to deduction £1,000,000.00",
        "Amount deducted (20%, standard rate) £200,000.00",
        "Amount paid to you £1,034,567.89"
      ])
        expect(text).toContain(expected)
      // The verification number is shown only where the higher rate was deducted.
      expect(text).not.toContain("V1234567890")
    })
  )

  it.effect("says so where a return filed before schemes were registered has no employer reference", () =>
    Effect.gen(function* () {
      const net = line("Net", "V1234567890")
      const older = new MonthlyReturn({
        ...june(net),
        contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123" })
      })
      const text = (yield* pdfText(yield* cisStatementPdf(cisStatement(older, net)))).replace(/\s+/g, " ")
      expect(text).toContain("Employer's reference: not given")
    })
  )

  it.effect("shows the verification number of an unmatched subcontractor", () =>
    Effect.gen(function* () {
      const unmatched = line("Unmatched", "V9876543210/A")
      const text = (yield* pdfText(yield* cisStatementPdf(cisStatement(june(unmatched), unmatched)))).replace(
        /\s+/g,
        " "
      )
      expect(text).toContain("Verification number: V9876543210/A")
      expect(text).toContain("Amount deducted (30%, higher rate (unmatched)) £300,000.00")
    })
  )

  it.effect("reads, laid out by pdftotext, as HMRC's worked example: each amount on its label's line", () =>
    Effect.gen(function* () {
      // CISR15100: £2,567 paid, £367 of it materials, deducted at the higher rate of 30 %.
      const unmatched = new ReturnLine({
        ...line("Unmatched", "V9876543210/A"),
        grossAmount: 256700,
        materials: 36700,
        deducted: 66000
      })
      const pdf = yield* cisStatementPdf(cisStatement(june(unmatched), unmatched))
      const read = spawnSync("pdftotext", ["-layout", "-", "-"], { input: pdf, encoding: "utf8" })
      expect(read.status, read.stderr).toBe(0)
      const lines = read.stdout.split("\n").map((l) => l.trim().replace(/\s{2,}/g, " | "))
      for (const expected of [
        "Lovelace Builders Ltd",
        "Employer's reference: 123/AB45678",
        "UTR: 8456789123",
        "Acme Roofing Ltd",
        "UTR: 6456789012",
        "Verification number: V9876543210/A",
        "Tax month ending 5 June 2026",
        "Gross amount paid (excluding VAT) | £2,567.00",
        "Less cost of materials | £367.00",
        "Amount liable to deduction | £2,200.00",
        "Amount deducted (30%, higher rate (unmatched)) | £660.00",
        "Amount paid to you | £1,907.00"
      ])
        expect(lines).toContain(expected)
    })
  )
})
