// The monthly returns' mapping module: their models as the sdk's MonthlyReturnDtos, for the handlers.

import type { ReturnDraft } from "@cisbook/core/returns/ReturnDraft"
import type { MonthlyReturnDraftDto } from "@cisbook/sdk/MonthlyReturnDtos"

// A return's answer is its event data, core's: its events carry the same JSON.
export { monthlyReturnEventData as monthlyReturnDto } from "@cisbook/core/returns/MonthlyReturnEventData"

/** A tax month's draft as the sdk's MonthlyReturnDraftDto. */
export const monthlyReturnDraftDto = (draft: ReturnDraft): MonthlyReturnDraftDto => ({
  periodEnd: draft.periodEnd,
  dueDate: draft.dueDate,
  nilReturn: draft.nilReturn,
  totals: draft.totals,
  lines: draft.lines.map((line) => ({
    contact: line.contactCode,
    name: line.name,
    utr: line.utr,
    verificationNumber: line.verificationNumber,
    taxTreatment: line.taxTreatment,
    grossAmount: line.grossAmount,
    materials: line.materials,
    deducted: line.deducted,
    payments: line.payments
  })),
  warnings: draft.warnings.map((w) => ({ contact: w.contactCode, code: w.code, message: w.message }))
})
