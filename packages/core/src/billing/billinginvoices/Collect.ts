import { Effect } from "effect"
import type { DirectDebit } from "../mandates/DirectDebit.js"
import type { BillingInvoice } from "./BillingInvoice.js"
import { invoicePaymentStatusOf } from "./InvoicePaymentStatus.js"

/** What an invoice that waits for a mandate records. */
export const waitingForMandate = {
  paymentStatus: "WaitingForMandate",
  paymentReference: null,
  mandateReference: null
} as const

/**
 * Creates the invoice's payment for its total on the mandate. The idempotency key makes a retried
 * create (after a crash, or by a racing process) answer the same payment, never a second one.
 */
export const collect = (
  provider: DirectDebit["Type"],
  invoice: BillingInvoice,
  mandateReference: string,
  idempotencyKey: string
) =>
  provider
    .createPayment(
      {
        amount: invoice.total,
        currency: "GBP",
        mandateId: mandateReference,
        description: `cisbook invoice ${invoice.number}`,
        chargeDate: null,
        invoice: { id: invoice.id, number: invoice.number }
      },
      idempotencyKey
    )
    .pipe(
      Effect.map((payment) => ({
        paymentStatus: invoicePaymentStatusOf(payment.status),
        paymentReference: payment.id,
        mandateReference
      }))
    )
