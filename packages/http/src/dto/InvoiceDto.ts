// The invoices' mapping module: their models as the sdk's InvoiceDtos, for the handlers.
import type { InvoiceListPage } from "@cisbook/core/invoices/InvoicePage"
import { invoiceEventMembers } from "@cisbook/core/invoices/InvoiceEventFields"
import type { PurchaseInvoice, PurchaseInvoicePayment } from "@cisbook/core/invoices/PurchaseInvoice"
import type { ReportedPayment } from "@cisbook/core/invoices/SalesInvoice"
import type { PaymentsReport } from "@cisbook/core/invoices/SalesInvoices"
import type {
  PurchaseInvoiceDto,
  PurchaseInvoicePaymentDto,
  SalesInvoicePaymentsReportItem
} from "@cisbook/sdk/InvoiceDtos"
import { HttpServerResponse } from "@effect/platform"
import { paymentsReportCsv } from "../responses/PaymentsReportCsv.js"

// A sales invoice's answer is its event data, core's: its events carry the same JSON.
export {
  salesInvoiceEventData as salesInvoiceDto,
  salesInvoicePaymentEventData as salesInvoicePaymentDto
} from "@cisbook/core/invoices/SalesInvoiceEventData"

export const purchaseInvoicePaymentDto = (payment: PurchaseInvoicePayment): PurchaseInvoicePaymentDto => ({
  id: payment.id,
  date: payment.date,
  amount: payment.amount,
  reference: payment.reference,
  grossAmount: payment.grossAmount,
  materials: payment.materials,
  deducted: payment.deducted
})

/** The invoice's members; with `payments`, the single-invoice form. */
export const purchaseInvoiceDto = (
  invoice: PurchaseInvoice,
  payments?: ReadonlyArray<PurchaseInvoicePayment>
): PurchaseInvoiceDto => ({
  ...invoiceEventMembers(invoice),
  materials: invoice.materials,
  taxTreatment: invoice.taxTreatment,
  amountPaid: invoice.amountPaid,
  amountDue: invoice.amountDue,
  status: invoice.status,
  ...(payments === undefined ? {} : { payments: payments.map(purchaseInvoicePaymentDto) }),
  createdAt: invoice.createdAt
})

/** A use case's page of invoices, each item mapped to its DTO. */
export const invoicePageDto = <Invoice, Dto>(page: InvoiceListPage<Invoice>, dto: (invoice: Invoice) => Dto) => ({
  ...page,
  items: page.items.map((invoice) => dto(invoice))
})

const salesInvoicePaymentsReportItem = ({
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

/** The payments report as JSON: one item per payment. */
export const salesInvoicePaymentsReportDto = (report: PaymentsReport) =>
  report.payments.map(salesInvoicePaymentsReportItem)

/** The payments report as a CSV file to save, named after its period. */
export const salesInvoicePaymentsCsvResponse = (report: PaymentsReport) =>
  HttpServerResponse.text(paymentsReportCsv(salesInvoicePaymentsReportDto(report)), {
    contentType: "text/csv; charset=utf-8",
    headers: {
      "content-disposition": `attachment; filename="sales-invoice-payments-${report.from}-to-${report.to}.csv"`
    }
  })
