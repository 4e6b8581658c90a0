import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { SalesInvoiceMail } from "@cisbook/core/invoices/SalesInvoiceMail"
import { SalesInvoices } from "@cisbook/core/invoices/SalesInvoices"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { preferredMediaType } from "../responses/ContentNegotiation.js"
import { queuedMailDto } from "../dto/MailDto.js"
import {
  invoicePageDto,
  salesInvoicePaymentsReportItem,
  salesInvoiceDto,
  salesInvoicePaymentDto
} from "../dto/InvoiceDto.js"
import { paymentsReportCsv } from "../responses/PaymentsReportCsv.js"

export const SalesInvoicesHandlers = HttpApiBuilder.group(CisbookApi, "salesInvoices", (handlers) =>
  Effect.gen(function* () {
    const invoices = yield* SalesInvoices
    const mail = yield* SalesInvoiceMail
    return handlers
      .handle("emailSalesInvoice", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mail.send(user, path.invoice, payload)),
          Effect.map(queuedMailDto)
        )
      )
      .handle("sendPaymentReminder", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mail.remind(user, path.invoice, payload)),
          Effect.map(queuedMailDto)
        )
      )
      .handle("listSalesInvoicePayments", ({ headers, urlParams }) =>
        invoices.paymentsReport(urlParams.from, urlParams.to).pipe(
          Effect.map((report) => {
            const items = report.payments.map(salesInvoicePaymentsReportItem)
            if (preferredMediaType(headers.accept, ["application/json", "text/csv"]) === "application/json")
              return items
            return HttpServerResponse.text(paymentsReportCsv(items), {
              contentType: "text/csv; charset=utf-8",
              headers: {
                "content-disposition": `attachment; filename="sales-invoice-payments-${report.from}-to-${report.to}.csv"`
              }
            })
          })
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
