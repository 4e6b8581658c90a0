import { SalesInvoiceMail } from "@cisbook/core/invoices/SalesInvoiceMail"
import { SalesInvoices } from "@cisbook/core/invoices/SalesInvoices"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { preferredMediaType } from "../responses/ContentNegotiation.js"
import { queuedMailDto } from "../dto/MailDto.js"
import {
  invoicePageDto,
  salesInvoiceDto,
  salesInvoicePaymentDto,
  salesInvoicePaymentsCsvResponse,
  salesInvoicePaymentsReportDto
} from "../dto/InvoiceDto.js"

export const SalesInvoicesHandlers = HttpApiBuilder.group(CisbookApi, "salesInvoices", (handlers) =>
  Effect.gen(function* () {
    const invoices = yield* SalesInvoices
    const mail = yield* SalesInvoiceMail
    return handlers
      .handle("emailSalesInvoice", ({ path, payload }) =>
        mail.send(path.invoice, payload).pipe(Effect.map(queuedMailDto))
      )
      .handle("sendPaymentReminder", ({ path, payload }) =>
        mail.remind(path.invoice, payload).pipe(Effect.map(queuedMailDto))
      )
      .handle("listSalesInvoicePayments", ({ headers, urlParams }) =>
        invoices
          .paymentsReport(urlParams.from, urlParams.to)
          .pipe(
            Effect.map((report) =>
              preferredMediaType(headers.accept, ["application/json", "text/csv"]) === "application/json"
                ? salesInvoicePaymentsReportDto(report)
                : salesInvoicePaymentsCsvResponse(report)
            )
          )
      )
      .handle("createSalesInvoice", ({ payload }) =>
        invoices.create(payload).pipe(Effect.map((invoice) => salesInvoiceDto(invoice)))
      )
      .handle("listSalesInvoices", ({ urlParams }) =>
        invoices.list(urlParams).pipe(Effect.map((page) => invoicePageDto(page, salesInvoiceDto)))
      )
      .handle("getSalesInvoice", ({ path }) =>
        invoices.get(path.invoice).pipe(Effect.map(({ invoice, payments }) => salesInvoiceDto(invoice, payments)))
      )
      .handle("createSalesInvoicePayment", ({ path, payload }) =>
        invoices.addPayment(path.invoice, payload).pipe(Effect.map(salesInvoicePaymentDto))
      )
  })
)
