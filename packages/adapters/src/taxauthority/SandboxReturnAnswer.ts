import { isValidUtr } from "@cisbook/core/cis/Utr"
import { returnTotals } from "@cisbook/core/returns/MonthlyReturn"
import type { ReturnAnswer, ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"

/** The total deducted that the sandbox always rejects, so that a test can see a rejection: £999.99. */
export const SANDBOX_REJECTED_DEDUCTIONS = 99999

/**
 * How the sandbox answers a return: accepted when every line's UTR is valid, rejected naming the
 * lines whose UTR is missing or invalid, and rejected when the deductions total exactly £999.99.
 */
export const sandboxReturnAnswer = (submission: ReturnSubmission): ReturnAnswer => {
  const badUtrs = submission.lines.filter((line) => line.utr === null || !isValidUtr(line.utr))
  if (badUtrs.length > 0)
    return {
      _tag: "Rejected",
      reason: `No valid UTR for ${badUtrs.map((line) => `${line.name} (${line.contactCode})`).join(", ")}.`
    }
  if (returnTotals(submission.lines).deducted === SANDBOX_REJECTED_DEDUCTIONS)
    return { _tag: "Rejected", reason: "The total deducted (£999.99) does not agree with the payments made." }
  return { _tag: "Accepted" }
}
