// The invoices' mapping module: their models as the sdk's InvoiceDtos, for the handlers.
import type { InvoiceListPage } from "@cisbook/core/invoices/InvoicePage"
import { invoiceViewMembers } from "@cisbook/core/invoices/InvoiceView"
import type { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import type { ReportedPayment } from "@cisbook/core/invoices/SalesInvoice"
import type { PurchaseInvoiceDto, SalesInvoicePaymentsReportItem } from "@cisbook/sdk/InvoiceDtos"

// A sales invoice's mapping is core's, because its events carry the same JSON.
export { salesInvoiceDto, salesInvoicePaymentDto } from "@cisbook/core/invoices/SalesInvoiceView"

export const purchaseInvoiceDto = (invoice: PurchaseInvoice): PurchaseInvoiceDto => ({
  ...invoiceViewMembers(invoice),
  createdAt: invoice.createdAt
})

/** A use case's page of invoices, each item mapped to its DTO. */
export const invoicePageDto = <Invoice, Dto>(page: InvoiceListPage<Invoice>, dto: (invoice: Invoice) => Dto) => ({
  ...page,
  items: page.items.map((invoice) => dto(invoice))
})

export const salesInvoicePaymentsReportItem = ({
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
