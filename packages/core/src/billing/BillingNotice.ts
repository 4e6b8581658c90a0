import type { Email } from "../Email.js"
import { formatMoney } from "../mail/MailFormat.js"
import type { BillingInvoice } from "./BillingInvoice.js"
import type { StoredMandateStatus } from "./MandateStatus.js"

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
    : "failed: your bank did not pay it"

/** A payment of an invoice failed or was charged back. */
export const paymentFailedNotice = (to: Email, invoice: BillingInvoice, action: string): BillingNotice => ({
  to,
  subject: `Payment of invoice ${invoice.number} ${action === "charged_back" ? "charged back" : "failed"}`,
  body:
    `The direct debit payment of ${formatMoney(invoice.total)} for invoice ${invoice.number} ` +
    `${paymentHappened(action)}.\n\n` +
    `What to do: make sure your bank account can pay it and that your mandate is still active ` +
    `(on your billing page). If the mandate was cancelled, set up a new ` +
    `one: every unpaid invoice is then collected on it. Until then ${formatMoney(invoice.total)} ` +
    `remains due on invoice ${invoice.number}.` +
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
