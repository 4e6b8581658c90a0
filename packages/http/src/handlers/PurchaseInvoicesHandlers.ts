import { PurchaseInvoices } from "@cisbook/core/invoices/PurchaseInvoices"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { invoicePageDto, purchaseInvoiceDto, purchaseInvoicePaymentDto } from "../dto/InvoiceDto.js"

export const PurchaseInvoicesHandlers = HttpApiBuilder.group(CisbookApi, "purchaseInvoices", (handlers) =>
  Effect.gen(function* () {
    const invoices = yield* PurchaseInvoices
    return handlers
      .handle("createPurchaseInvoice", ({ payload }) =>
        invoices.create(payload).pipe(Effect.map((invoice) => purchaseInvoiceDto(invoice)))
      )
      .handle("listPurchaseInvoices", ({ urlParams }) =>
        invoices
          .list(urlParams)
          .pipe(Effect.map((page) => invoicePageDto(page, (invoice) => purchaseInvoiceDto(invoice))))
      )
      .handle("getPurchaseInvoice", ({ path }) =>
        invoices.get(path.invoice).pipe(Effect.map(({ invoice, payments }) => purchaseInvoiceDto(invoice, payments)))
      )
      .handle("createPurchaseInvoicePayment", ({ path, payload }) =>
        invoices.addPayment(path.invoice, payload).pipe(Effect.map(purchaseInvoicePaymentDto))
      )
  })
)
