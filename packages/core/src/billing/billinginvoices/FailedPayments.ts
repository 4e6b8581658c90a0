import { addDays, ukCalendarDate } from "../../CalendarDate.js"
import type { BillingInvoice } from "./BillingInvoice.js"

/** How many days after its payment failed (a UK calendar day) the billing run collects an invoice again. */
export const RETRY_AFTER_FAILURE_DAYS = 3

/** The most retries the billing run asks of the provider for one invoice's payment. */
export const MAX_PAYMENT_RETRIES = 3

/**
 * What happens next to an invoice whose payment failed, as the billing run will do it:
 * `Retry` asks the provider to collect the same payment again at the first run dated `on` or
 * later (its mandate can still collect and retries are left), `CurrentMandate` collects it with a
 * new payment on the user's newer mandate, `NewMandate` waits until the user completes a new mandate.
 */
export type AfterFailure =
  | { readonly _tag: "Retry"; readonly on: string }
  | { readonly _tag: "CurrentMandate" }
  | { readonly _tag: "NewMandate" }

/**
 * The next step for `invoice`, failed at `failedAt`, while the user's collecting mandate is
 * `collecting` (MD..., null when none). `retryable` is false for a failure the provider cannot
 * retry (a charge-back, a late failure, a payment the customer did not approve).
 */
export const afterFailure = (
  invoice: BillingInvoice,
  failedAt: Date,
  retryable: boolean,
  collecting: string | null
): AfterFailure => {
  if (collecting === null) return { _tag: "NewMandate" }
  if (collecting !== invoice.mandateReference) return { _tag: "CurrentMandate" }
  return retryable && invoice.paymentRetries < MAX_PAYMENT_RETRIES
    ? { _tag: "Retry", on: retryDueOn(failedAt) }
    : { _tag: "NewMandate" }
}

/** The first billing run date (YYYY-MM-DD) on which a payment that failed at `failedAt` is retried. */
export const retryDueOn = (failedAt: Date): string => addDays(ukCalendarDate(failedAt), RETRY_AFTER_FAILURE_DAYS)

/**
 * Whether a run dated `runDate` (its "today", YYYY-MM-DD) retries the Failed `invoice`: 3 days
 * after its failure, counted to the run's date rather than the wall clock (a failure at a time not
 * recorded is due at once).
 */
export const dueForRetry = (invoice: BillingInvoice, runDate: string): boolean =>
  invoice.failedAt === null || retryDueOn(invoice.failedAt) <= runDate
