import { type ReportedPayment, SalesInvoice, SalesInvoicePayment } from "@cisbook/core/invoices/SalesInvoice"
import { Schema } from "effect"

/** A row of the payments report: the payment, its invoice and the customer's name, side by side. */
export const ReportedPaymentRow = Schema.Struct({
  paymentId: Schema.String,
  paymentDate: Schema.String,
  paymentAmount: Schema.Number,
  paymentCisDeduction: Schema.Number,
  paymentReference: Schema.NullOr(Schema.String),
  paymentCreatedAt: Schema.DateFromSelf,
  tenantId: Schema.String,
  invoiceId: Schema.String,
  number: Schema.String,
  contactId: Schema.String,
  contactCode: Schema.String,
  contactName: Schema.String,
  issueDate: Schema.String,
  dueDate: Schema.String,
  reference: Schema.NullOr(Schema.String),
  subtotal: Schema.Number,
  vat: Schema.Number,
  cisDeduction: Schema.Number,
  amountPaid: Schema.Number,
  createdAt: Schema.DateFromSelf
})
export type ReportedPaymentRow = typeof ReportedPaymentRow.Type

export const reportedPaymentColumns = `
  p.id AS payment_id, p.date AS payment_date, p.amount AS payment_amount,
  p.cis_deduction AS payment_cis_deduction, p.reference AS payment_reference, p.created_at AS payment_created_at,
  i.tenant_id, i.id AS invoice_id, i.number, i.contact_id, c.code AS contact_code, c.name AS contact_name,
  i.issue_date, i.due_date, i.reference, i.subtotal, i.vat, i.cis_deduction, i.amount_paid, i.created_at`

const decodePayment = Schema.decodeUnknownSync(SalesInvoicePayment)
const decodeInvoice = Schema.decodeUnknownSync(SalesInvoice)

export const reportedPayment = (row: ReportedPaymentRow): ReportedPayment => ({
  payment: decodePayment({
    id: row.paymentId,
    tenantId: row.tenantId,
    invoiceId: row.invoiceId,
    date: row.paymentDate,
    amount: row.paymentAmount,
    cisDeduction: row.paymentCisDeduction,
    reference: row.paymentReference,
    createdAt: row.paymentCreatedAt
  }),
  invoice: decodeInvoice({
    id: row.invoiceId,
    tenantId: row.tenantId,
    number: row.number,
    contactId: row.contactId,
    contactCode: row.contactCode,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    reference: row.reference,
    subtotal: row.subtotal,
    vat: row.vat,
    cisDeduction: row.cisDeduction,
    amountPaid: row.amountPaid,
    createdAt: row.createdAt
  }),
  contactName: row.contactName
})
