import { type ReportedPayment, SalesInvoice, SalesInvoicePayment } from "@cisbook/core/invoices/SalesInvoice"
import type { ContactId, SalesInvoiceId, SalesInvoicePaymentId, TenantId } from "@cisbook/core/Ids"

/** A row of the payments report: the payment, its invoice and the customer's name, side by side. */
export interface ReportedPaymentRow {
  readonly paymentId: string
  readonly paymentDate: string
  readonly paymentAmount: number
  readonly paymentCisDeduction: number
  readonly paymentReference: string | null
  readonly paymentCreatedAt: Date
  readonly tenantId: string
  readonly invoiceId: string
  readonly number: string
  readonly contactId: string
  readonly contactCode: string
  readonly contactName: string
  readonly issueDate: string
  readonly dueDate: string
  readonly reference: string | null
  readonly subtotal: number
  readonly vat: number
  readonly cisDeduction: number
  readonly amountPaid: number
  readonly createdAt: Date
}

export const reportedPaymentColumns = `
  p.id AS payment_id, p.date AS payment_date, p.amount AS payment_amount,
  p.cis_deduction AS payment_cis_deduction, p.reference AS payment_reference, p.created_at AS payment_created_at,
  i.tenant_id, i.id AS invoice_id, i.number, i.contact_id, c.code AS contact_code, c.name AS contact_name,
  i.issue_date, i.due_date, i.reference, i.subtotal, i.vat, i.cis_deduction, i.amount_paid, i.created_at`

// Rows were validated on the way in, and the columns' types give their members' types, so
// reading them back builds the classes without validating every member again (a report has
// thousands).
const trusted = true

export const reportedPayment = (row: ReportedPaymentRow): ReportedPayment => ({
  payment: new SalesInvoicePayment(
    {
      id: row.paymentId as SalesInvoicePaymentId,
      tenantId: row.tenantId as TenantId,
      invoiceId: row.invoiceId as SalesInvoiceId,
      date: row.paymentDate,
      amount: row.paymentAmount,
      cisDeduction: row.paymentCisDeduction,
      reference: row.paymentReference,
      createdAt: row.paymentCreatedAt
    },
    trusted
  ),
  invoice: new SalesInvoice(
    {
      id: row.invoiceId as SalesInvoiceId,
      tenantId: row.tenantId as TenantId,
      number: row.number,
      contactId: row.contactId as ContactId,
      contactCode: row.contactCode,
      issueDate: row.issueDate,
      dueDate: row.dueDate,
      reference: row.reference,
      subtotal: row.subtotal,
      vat: row.vat,
      cisDeduction: row.cisDeduction,
      amountPaid: row.amountPaid,
      createdAt: row.createdAt
    },
    trusted
  ),
  contactName: row.contactName
})
