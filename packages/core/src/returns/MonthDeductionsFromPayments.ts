import { Effect, Layer } from "effect"
import { MonthDeductions } from "./MonthDeductions.js"
import { SubcontractorPayments } from "./SubcontractorPayments.js"
import { taxMonthEndOf, taxMonthStart } from "./TaxMonth.js"

/**
 * The deductions of months without a return as their drafts total them: a draft's lines are the
 * sums of the shares of the month's payments to CIS subcontractors, so its `totals.deducted` is the
 * sum of those payments' deducted shares. One read of the payments from the first month to the last.
 */
export const MonthDeductionsFromPayments = Layer.effect(
  MonthDeductions,
  Effect.gen(function* () {
    const payments = yield* SubcontractorPayments
    return MonthDeductions.of({
      drafted: (tenantId, periodEnds) =>
        Effect.gen(function* () {
          const totals = new Map(periodEnds.map((periodEnd) => [periodEnd, 0]))
          if (periodEnds.length === 0) return totals
          const ordered = [...periodEnds].sort()
          const paid = yield* payments.between(tenantId, taxMonthStart(ordered[0]!), ordered.at(-1)!)
          for (const payment of paid) {
            const month = taxMonthEndOf(payment.date)
            const total = totals.get(month)
            if (total !== undefined) totals.set(month, total + payment.deducted)
          }
          return totals
        })
    })
  })
)
