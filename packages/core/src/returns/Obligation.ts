import { Schema } from "effect"
import type { MonthlyReturnId } from "../Ids.js"
import { lateFilingPenalty } from "./LateFilingPenalty.js"
import type { MonthFiling } from "./MonthlyReturnRepo.js"
import { returnDueDate, taxMonthsAfter } from "./TaxMonth.js"

/**
 * Where a tax month's return stands: `Filed` on or before its due date, `FiledLate`; not filed,
 * `Due` (the due date not passed) or `Overdue`; or `Inactive`: not filed, within the six tax
 * months after a nil return that declared the contractor inactive, so nothing is due.
 */
export const ObligationStatus = Schema.Literal("Filed", "FiledLate", "Due", "Overdue", "Inactive")
export type ObligationStatus = typeof ObligationStatus.Type

/** A contractor's obligation to file the return of one tax month. Money in pence. */
export interface Obligation {
  readonly periodEnd: string
  readonly dueDate: string
  readonly status: ObligationStatus
  /** The month's return that is Submitted, Held or Accepted (and not sent as a test); null when none. */
  readonly monthlyReturn: MonthlyReturnId | null
  /** The UTC date the return was filed (a held one: once sent again); null while not filed. */
  readonly filedOn: string | null
  /** HMRC's late-filing penalty as of filedOn, or today while not filed. */
  readonly penalty: number
}

/** How many tax months after a nil return that declared it an inactivity declaration covers (CISR67010). */
export const INACTIVE_MONTHS = 6

/** Whether an inactivity declaration on the return of the month ending `declaredIn` covers the month ending `periodEnd`. */
const covers = (declaredIn: string, periodEnd: string) =>
  declaredIn < periodEnd && periodEnd <= taxMonthsAfter(declaredIn, INACTIVE_MONTHS)

/**
 * The obligation of each tax month named, given the tenant's returns that count (for those months
 * and the six before them, whose inactivity declarations may cover them), the deductions drafted
 * for the months without a return, and today's date.
 */
export const obligationsOf = (input: {
  readonly months: ReadonlyArray<string>
  readonly filings: ReadonlyArray<MonthFiling>
  readonly drafted: ReadonlyMap<string, number>
  readonly today: string
}): ReadonlyArray<Obligation> => {
  const byMonth = new Map(input.filings.map((filing) => [filing.periodEnd, filing]))
  // A held return has not reached HMRC: its inactivity declaration is not made yet.
  const inactiveFrom = input.filings
    .filter((filing) => filing.nilReturn && filing.inactive && filing.status !== "Held")
    .map((filing) => filing.periodEnd)
  return input.months.map((periodEnd): Obligation => {
    const dueDate = returnDueDate(periodEnd)
    const filing = byMonth.get(periodEnd)
    const filed = filing !== undefined && filing.status !== "Held"
    const filedOn = filed ? filing.filedAt.toISOString().slice(0, 10) : null
    const status: ObligationStatus =
      filedOn !== null
        ? filedOn <= dueDate
          ? "Filed"
          : "FiledLate"
        : inactiveFrom.some((declaredIn) => covers(declaredIn, periodEnd))
          ? "Inactive"
          : input.today <= dueDate
            ? "Due"
            : "Overdue"
    const deducted = filing?.deducted ?? input.drafted.get(periodEnd) ?? 0
    return {
      periodEnd,
      dueDate,
      status,
      monthlyReturn: filing?.id ?? null,
      filedOn,
      penalty: status === "Inactive" ? 0 : lateFilingPenalty(dueDate, filedOn ?? input.today, deducted)
    }
  })
}
