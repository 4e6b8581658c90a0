import { Schema } from "effect"
import { Day, invoiceEventFields, invoiceEventMembers } from "./InvoiceEventFields.js"
import { Pounds } from "../Money.js"
import { type SalesInvoice, type SalesInvoicePayment, SalesInvoiceStatus } from "./SalesInvoice.js"

export const SalesInvoicePaymentEventData = Schema.Struct({
  id: Schema.String,
  date: Day,
  amount: Pounds,
  reference: Schema.NullOr(Schema.String)
}).annotations({
  identifier: "SalesInvoicePaymentDto",
  description: "A payment towards a sales invoice; amount in pounds",
  examples: [{ id: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a001", date: "2026-05-01", amount: 60000, reference: "BACS 4471" }]
})
export type SalesInvoicePaymentEventData = typeof SalesInvoicePaymentEventData.Type

const fields = {
  ...invoiceEventFields("customer"),
  amountPaid: Pounds,
  amountDue: Pounds.annotations({ description: "total − cisDeduction − amountPaid" }),
  status: SalesInvoiceStatus.annotations({ description: "Paid once amountDue is 0, else Open" }),
  payments: Schema.optional(Schema.Array(SalesInvoicePaymentEventData)).annotations({
    description: "Oldest first; only on the single-invoice GET (and in the invoice's events)"
  }),
  createdAt: Schema.Date
}

const example: Schema.Struct.Type<typeof fields> = {
  id: "0196a5f2-4e10-7b55-a2c4-3f9d0c1e7a10",
  number: "INV-000042",
  contact: "ACMEBUIL",
  issueDate: "2026-04-06",
  dueDate: "2026-05-06",
  reference: "PO 7781",
  subtotal: 100000,
  vat: 20000,
  total: 120000,
  cisDeduction: 20000,
  amountPaid: 60000,
  amountDue: 40000,
  status: "Open",
  payments: [{ id: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a001", date: "2026-05-01", amount: 60000, reference: null }],
  createdAt: new Date("2026-04-06T10:15:00.000Z")
}

/**
 * The `data` of a sales invoice's events (sales-invoice.created, .paid), with its payments,
 * written with the change in its transaction; the API answers the same shape (the sdk's
 * SalesInvoiceDto). Money is pounds on the wire and pence in code.
 */
export const SalesInvoiceEventData = Schema.Struct(fields).annotations({
  identifier: "SalesInvoiceDto",
  examples: [example]
})
export type SalesInvoiceEventData = typeof SalesInvoiceEventData.Type

export const salesInvoicePaymentEventData = (payment: SalesInvoicePayment): SalesInvoicePaymentEventData => ({
  id: payment.id,
  date: payment.date,
  amount: payment.amount,
  reference: payment.reference
})

/** The invoice's members; with `payments`, the single-invoice form. */
export const salesInvoiceEventData = (
  invoice: SalesInvoice,
  payments?: ReadonlyArray<SalesInvoicePayment>
): SalesInvoiceEventData => ({
  ...invoiceEventMembers(invoice),
  amountPaid: invoice.amountPaid,
  amountDue: invoice.amountDue,
  status: invoice.status,
  ...(payments === undefined ? {} : { payments: payments.map(salesInvoicePaymentEventData) }),
  createdAt: invoice.createdAt
})

/** The JSON of a sales invoice with its payments, as webhook receivers get it. */
export const salesInvoiceEventJson = (invoice: SalesInvoice, payments: ReadonlyArray<SalesInvoicePayment>) =>
  Schema.encodeSync(SalesInvoiceEventData)(salesInvoiceEventData(invoice, payments))
