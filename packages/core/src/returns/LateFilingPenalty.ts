import { addMonths } from "../CalendarDate.js"

/** HMRC's fixed penalty the day after the due date (pence). */
const FIRST_PENALTY = 10_000
/** Added once more than two months late. */
const TWO_MONTHS_PENALTY = 20_000
/** The least of the penalties added once more than six and again once more than twelve months late. */
const TAX_GEARED_MINIMUM = 30_000

/**
 * HMRC's late-filing penalty for a CIS300 (CH62380) as of `asOf` (the day it was filed, or today
 * when it is not), in pence: nothing on or before the due date; £100 after it; £200 more once
 * more than two months late (after the same day two months on); the greater of £300 and 5 % of
 * the return's deductions (rounded down to the penny) once more than six months late, and the
 * same again once more than twelve. The cap HMRC puts on a contractor new to CIS (CH62560) is
 * not modelled.
 */
export const lateFilingPenalty = (dueDate: string, asOf: string, deducted: number): number => {
  const lateAfter = (months: number) => asOf > addMonths(dueDate, months)
  if (!lateAfter(0)) return 0
  const taxGeared = Math.max(TAX_GEARED_MINIMUM, Math.floor((deducted * 5) / 100))
  return (
    FIRST_PENALTY +
    (lateAfter(2) ? TWO_MONTHS_PENALTY : 0) +
    (lateAfter(6) ? taxGeared : 0) +
    (lateAfter(12) ? taxGeared : 0)
  )
}
