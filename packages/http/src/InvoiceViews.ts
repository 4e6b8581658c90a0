import type { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import type { ReportedPayment } from "@cisbook/core/invoices/SalesInvoice"
import type { PurchaseInvoiceDto, SalesInvoicePaymentsReportItem } from "@cisbook/sdk/InvoiceDtos"

export const purchaseInvoiceDto = (invoice: PurchaseInvoice): PurchaseInvoiceDto => ({
  id: invoice.id,
  number: invoice.number,
  contact: invoice.contactCode,
  issueDate: invoice.issueDate,
  dueDate: invoice.dueDate,
  reference: invoice.reference,
  subtotal: invoice.subtotal,
  vat: invoice.vat,
  total: invoice.total,
  cisDeduction: invoice.cisDeduction,
  createdAt: invoice.createdAt
})

export const paymentsReportItem = ({
  contactName,
  invoice,
  payment
}: ReportedPayment): SalesInvoicePaymentsReportItem => ({
  paymentId: payment.id,
  paymentDate: payment.date,
  amount: payment.amount,
  cisDeduction: payment.cisDeduction,
  invoiceId: invoice.id,
  invoiceNumber: invoice.number,
  invoiceDate: invoice.issueDate,
  invoiceDueDate: invoice.dueDate,
  invoiceReference: invoice.reference,
  contactCode: invoice.contactCode,
  contactName
})
