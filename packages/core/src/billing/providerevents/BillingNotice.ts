import type { Email } from "../../Email.js"
import { formatDate, formatMoney } from "../../mail/MailFormat.js"
import type { AfterFailure } from "../billinginvoices/FailedPayments.js"
import type { BillingInvoice } from "../billinginvoices/BillingInvoice.js"
import type { StoredMandateStatus } from "../mandates/MandateStatus.js"

/** A notice to a user about their direct debit, as the service writes it. */
export interface BillingNotice {
  readonly to: Email
  readonly subject: string
  readonly body: string
}

const SIGN_OFF = "\n\nThe cisbook billing team"

const paymentHappened = (action: string) =>
  action === "charged_back"
    ? "was charged back: your bank returned the money to you at your request"
    : action === "late_failure_settled"
      ? "failed after it was first reported paid: your bank did not pay it"
      : action === "customer_approval_denied"
        ? "was not approved"
        : "failed: your bank did not pay it"

/** What the service will do about the unpaid invoice, said as the billing run will do it. */
const whatNext = (invoice: BillingInvoice, next: AfterFailure) => {
  switch (next._tag) {
    case "Retry":
      return (
        `What happens next: we will collect it again from the same account on ${formatDate(next.on)} ` +
        `or at the first billing run after it. Make sure your account can pay ${formatMoney(invoice.total)} by then.`
      )
    case "CurrentMandate":
      return `What happens next: we will collect it on your current direct debit mandate at the next billing run.`
    case "NewMandate":
      return (
        `What happens next: it will not be collected again on this mandate. Set up a new direct debit mandate ` +
        `on your billing page (cancel the current one first if it is still active), with an account that can pay: ` +
        `invoice ${invoice.number} is then collected on it. Until then ${formatMoney(invoice.total)} remains due.`
      )
  }
}

/**
 * A payment of an invoice failed or was charged back: what happened (the provider's own
 * `description` when it gave one), and what happens next.
 */
export const paymentFailedNotice = (
  to: Email,
  invoice: BillingInvoice,
  action: string,
  description: string | null,
  next: AfterFailure
): BillingNotice => ({
  to,
  subject: `Payment of invoice ${invoice.number} ${action === "charged_back" ? "charged back" : "failed"}`,
  body:
    `The direct debit payment of ${formatMoney(invoice.total)} for invoice ${invoice.number} ` +
    `${paymentHappened(action)}.` +
    (description === null ? "" : ` The reason given: ${description}`) +
    `\n\n${whatNext(invoice, next)}` +
    SIGN_OFF
})

const mandateHappened: Readonly<Record<string, string>> = {
  Cancelled: "was cancelled",
  Failed: "could not be set up, or your bank stopped it",
  Expired: "has expired"
}

/**
 * The user's mandate ended; `unpaid` are their invoices it will no longer collect (each named
 * with its amount, so that the user knows what is still owed).
 */
export const mandateEndedNotice = (
  to: Email,
  reference: string,
  status: StoredMandateStatus,
  unpaid: ReadonlyArray<BillingInvoice>
): BillingNotice => {
  const owed =
    unpaid.length === 0
      ? "No invoice is waiting to be paid just now."
      : `Still to be paid: ${unpaid.map((i) => `invoice ${i.number} (${formatMoney(i.total)})`).join(", ")}.`
  return {
    to,
    subject: `Your direct debit mandate ${reference} ${mandateHappened[status] === undefined ? "changed" : "has ended"}`,
    body:
      `Your direct debit mandate ${reference} ${mandateHappened[status] ?? `is now ${status}`}, so no ` +
      `further payments can be collected with it.\n\n${owed}\n\n` +
      `What to do: set up a new direct debit mandate on your billing page. Every unpaid invoice is then collected on the new mandate.` +
      SIGN_OFF
  }
}
