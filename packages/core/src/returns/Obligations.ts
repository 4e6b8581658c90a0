import { Effect, Option } from "effect"
import { ukCalendarDate } from "../CalendarDate.js"
import { type NotFound, ValidationFailed } from "../Errors.js"
import { Clock } from "../system/Clock.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { TenantSettingsRepo } from "../tenants/TenantSettingsRepo.js"
import { MonthDeductions } from "./MonthDeductions.js"
import { MonthlyReturnRepo } from "./MonthlyReturnRepo.js"
import { INACTIVE_MONTHS, type Obligation, obligationsOf } from "./Obligation.js"
import { taxMonthEndOf, taxMonthsAfter, taxMonthsBetween } from "./TaxMonth.js"

/** How many tax months one answer covers at most: ten years. */
export const MAX_OBLIGATION_MONTHS = 120

/** The tax months asked for, by the dates their periodEnd lies between (both included). */
export interface ObligationRange {
  readonly from?: string | undefined
  readonly to?: string | undefined
}

/**
 * A contractor's obligations: for each tax month from its CIS registration's on, whether its
 * return was filed, is due, overdue or not needed (inactive), and HMRC's late-filing penalty.
 */
export class Obligations extends Effect.Service<Obligations>()("core/Obligations", {
  effect: Effect.gen(function* () {
    const returns = yield* MonthlyReturnRepo
    const settings = yield* TenantSettingsRepo
    const deductions = yield* MonthDeductions
    const clock = yield* Clock

    /**
     * The obligation of each tax month whose periodEnd lies between `from` and `to` (default: the
     * twelve tax months ending with the current one) and is not before the tax month the
     * registration began in, oldest first; none without a registration.
     */
    const list = (
      range: ObligationRange
    ): Effect.Effect<ReadonlyArray<Obligation>, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const today = ukCalendarDate(yield* clock.now)
        const current = taxMonthEndOf(today)
        const to = range.to ?? current
        const from = range.from ?? taxMonthsAfter(current, -11)
        if (from > to)
          return yield* ValidationFailed.one("from", `from (${from}) is after to (${to}): give from on or before to`)
        // The first and last tax months whose periodEnd lies in the range.
        const first = taxMonthEndOf(from) < from ? taxMonthsAfter(taxMonthEndOf(from), 1) : taxMonthEndOf(from)
        const last = taxMonthEndOf(to) > to ? taxMonthsAfter(taxMonthEndOf(to), -1) : taxMonthEndOf(to)
        if (last > taxMonthsAfter(first, MAX_OBLIGATION_MONTHS - 1))
          return yield* ValidationFailed.one(
            "to",
            `At most ${MAX_OBLIGATION_MONTHS} tax months are answered at once: give a to within ten years of from`
          )
        const registeredFrom = yield* settings.getRegisteredFrom(tenant.id)
        if (Option.isNone(registeredFrom)) return []
        const start = taxMonthEndOf(registeredFrom.value)
        const months = taxMonthsBetween(first > start ? first : start, last)
        if (months.length === 0) return []
        // The six tax months before the first may hold an inactivity declaration that covers it.
        const filings = yield* returns.filings(tenant.id, taxMonthsAfter(months[0]!, -INACTIVE_MONTHS), months.at(-1)!)
        const filed = new Set(filings.map((filing) => filing.periodEnd))
        const drafted = yield* deductions.drafted(
          tenant.id,
          months.filter((month) => !filed.has(month))
        )
        return obligationsOf({ months, filings, drafted, today })
      }).pipe(Effect.withSpan("Obligations.list"))

    return { list } as const
  })
}) {}
