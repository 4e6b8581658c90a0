import { Duration } from "effect"
import type { BillingInvoice } from "./BillingInvoice.js"

/** How long after its payment failed the billing run collects an invoice again. */
export const RETRY_AFTER_FAILURE = Duration.days(3)

/** The most retries the billing run asks of the provider for one invoice's payment. */
export const MAX_PAYMENT_RETRIES = 3

/**
 * What happens next to an invoice whose payment failed, as the billing run will do it:
 * `Retry` asks the provider to collect the same payment again on or after `on` (its mandate can
 * still collect and retries are left), `CurrentMandate` collects it with a new payment on the
 * user's newer mandate, `NewMandate` waits until the user completes a new mandate.
 */
export type AfterFailure =
  { readonly _tag: "Retry"; readonly on: Date } | { readonly _tag: "CurrentMandate" } | { readonly _tag: "NewMandate" }

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
    ? { _tag: "Retry", on: retryDue(failedAt) }
    : { _tag: "NewMandate" }
}

/** When a payment that failed at `failedAt` is due for a retry. */
export const retryDue = (failedAt: Date): Date => new Date(failedAt.getTime() + Duration.toMillis(RETRY_AFTER_FAILURE))

/** The latest failure time a payment can have and be due for a retry at `now`. */
export const failedBy = (now: Date): Date => new Date(now.getTime() - Duration.toMillis(RETRY_AFTER_FAILURE))
