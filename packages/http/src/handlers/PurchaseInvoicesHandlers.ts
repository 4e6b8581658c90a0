import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { PurchaseInvoices } from "@cisbook/core/invoices/PurchaseInvoices"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { invoicePageDto, purchaseInvoiceDto } from "../InvoiceViews.js"

export const PurchaseInvoicesHandlers = HttpApiBuilder.group(CisbookApi, "purchaseInvoices", (handlers) =>
  Effect.gen(function* () {
    const invoices = yield* PurchaseInvoices
    return handlers
      .handle("createPurchaseInvoice", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => invoices.create(user, path.tenant, payload)),
          Effect.map(purchaseInvoiceDto)
        )
      )
      .handle("listPurchaseInvoices", ({ path, urlParams }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => invoices.list(user, path.tenant, urlParams)),
          Effect.map((page) => invoicePageDto(page, purchaseInvoiceDto))
        )
      )
      .handle("getPurchaseInvoice", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => invoices.get(user, path.tenant, path.invoice)),
          Effect.map(purchaseInvoiceDto)
        )
      )
  })
)
