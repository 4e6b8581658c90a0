import { Effect } from "effect"
import type { Conflict, NotFound, ValidationFailed } from "../Errors.js"
import { PurchaseInvoiceId } from "../Ids.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { invoiceBook } from "./InvoiceBook.js"
import type { NewPurchaseInvoice } from "./InvoiceInput.js"
import type { InvoiceListPage } from "./InvoicePage.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import { PurchaseInvoice } from "./PurchaseInvoice.js"
import { PurchaseInvoiceRepo } from "./PurchaseInvoiceRepo.js"

export type PurchaseInvoiceListPage = InvoiceListPage<PurchaseInvoice>

export class PurchaseInvoices extends Effect.Service<PurchaseInvoices>()("core/PurchaseInvoices", {
  effect: Effect.gen(function* () {
    const repo = yield* PurchaseInvoiceRepo
    const book = yield* invoiceBook({
      kind: "purchase invoice",
      role: "Supplier",
      store: repo,
      toId: (id) => PurchaseInvoiceId.make(id),
      number: (_tenant, input: NewPurchaseInvoice) => Effect.succeed(input.number),
      make: (members) => new PurchaseInvoice(members),
      numberTaken: (tenant, contact, number) =>
        `${contact.code} already has a purchase invoice numbered ${number} in ${tenant.code}.`,
      recorded: () => Effect.void
    })

    /** Records a supplier's invoice. */
    const create = (
      input: NewPurchaseInvoice
    ): Effect.Effect<PurchaseInvoice, NotFound | ValidationFailed | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.create(tenant, input)
      }).pipe(Effect.withSpan("PurchaseInvoices.create"))

    const get = (id: string): Effect.Effect<PurchaseInvoice, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.find(tenant, id)
      })

    const list = (
      request: InvoiceListRequest
    ): Effect.Effect<PurchaseInvoiceListPage, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.page(tenant, request)
      }).pipe(Effect.withSpan("PurchaseInvoices.list"))

    return { create, get, list } as const
  })
}) {}
