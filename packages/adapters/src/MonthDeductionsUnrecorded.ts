import { MonthDeductions } from "@cisbook/core/returns/MonthDeductions"
import { Effect, Layer } from "effect"

/**
 * The deductions drafted for a month without a return while the service records no payments of
 * purchase invoices: the draft of such a month has no payments, so it deducts nothing (a nil
 * draft). To be replaced by the drafted return's totals once payments are recorded.
 */
export const MonthDeductionsUnrecorded = Layer.succeed(
  MonthDeductions,
  MonthDeductions.of({
    drafted: (_tenantId, periodEnds) => Effect.succeed(new Map(periodEnds.map((periodEnd) => [periodEnd, 0])))
  })
)
