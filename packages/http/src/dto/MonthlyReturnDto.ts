// The monthly returns' mapping module: their models as the sdk's MonthlyReturnDtos, for the handlers.

import type { ReturnTotals } from "@cisbook/core/returns/MonthlyReturn"
import type { DraftPayment, ReturnDraft } from "@cisbook/core/returns/ReturnDraft"
import { HttpServerResponse } from "@effect/platform"

// A return's answer is its event data, core's: its events carry the same JSON.
export { monthlyReturnEventData as monthlyReturnDto } from "@cisbook/core/returns/MonthlyReturnEventData"

// Pence as the wire's pounds (the Pounds schema's encoding).
const pounds = (pence: number) => pence / 100

const totalsJson = (totals: ReturnTotals) => ({
  grossAmount: pounds(totals.grossAmount),
  materials: pounds(totals.materials),
  deducted: pounds(totals.deducted)
})

const paymentJson = (payment: DraftPayment) => ({
  purchaseInvoice: payment.purchaseInvoice,
  invoiceNumber: payment.invoiceNumber,
  payment: payment.payment,
  date: payment.date,
  amount: pounds(payment.amount),
  grossAmount: pounds(payment.grossAmount),
  materials: pounds(payment.materials),
  deducted: pounds(payment.deducted)
})

/**
 * A tax month's draft as the sdk's MonthlyReturnDraftDto encodes it, built directly (a test holds
 * it to the schema): through the schema, encoding a month's thousands of payments, each amount
 * checked again, cost more than drafting them.
 */
export const monthlyReturnDraftJson = (draft: ReturnDraft) => ({
  periodEnd: draft.periodEnd,
  dueDate: draft.dueDate,
  nilReturn: draft.nilReturn,
  totals: totalsJson(draft.totals),
  lines: draft.lines.map((line) => ({
    contact: line.contactCode,
    name: line.name,
    utr: line.utr,
    verificationNumber: line.verificationNumber,
    taxTreatment: line.taxTreatment,
    ...totalsJson(line),
    payments: line.payments.map(paymentJson)
  })),
  warnings: draft.warnings.map((w) => ({ contact: w.contactCode, code: w.code, message: w.message }))
})

export const monthlyReturnDraftResponse = (draft: ReturnDraft) =>
  HttpServerResponse.unsafeJson(monthlyReturnDraftJson(draft))
