import { Effect } from "effect"
import * as fs from "node:fs"
import { cisStatementPdf } from "./packages/adapters/src/documents/CisStatementPdf.js"
const s = {
  contractor: { name: "Lovelace Builders Ltd", utr: "8456789123" },
  periodEnd: "2026-06-05",
  subcontractor: {
    code: "ACMEROOF",
    name: "Acme Roofing Ltd",
    utr: "6456789012",
    taxTreatment: "Unmatched",
    verificationNumber: "V9876543210/A"
  },
  grossAmount: 150050,
  materials: 40050,
  liableToDeduction: 110000,
  deductionPercent: 30,
  deducted: 33000,
  netPaid: 117050
} as const
fs.writeFileSync("/tmp/statement.pdf", Effect.runSync(cisStatementPdf(s as any)) as any)
