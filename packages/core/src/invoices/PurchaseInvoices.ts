import { Effect } from "effect"
import type { Conflict, Forbidden, NotFound, ValidationFailed } from "../Errors.js"
import { PurchaseInvoiceId } from "../Ids.js"
import { invoiceBook } from "./InvoiceBook.js"
import type { NewPurchaseInvoice } from "./InvoiceInput.js"
import type { InvoiceListPage } from "./InvoicePage.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import { PurchaseInvoice } from "./PurchaseInvoice.js"
import { PurchaseInvoiceRepo } from "./PurchaseInvoiceRepo.js"
import type { User } from "../users/User.js"
import { Tenants } from "../tenants/Tenants.js"

export type PurchaseInvoiceListPage = InvoiceListPage<PurchaseInvoice>

export class PurchaseInvoices extends Effect.Service<PurchaseInvoices>()("core/PurchaseInvoices", {
  effect: Effect.gen(function* () {
    const tenants = yield* Tenants
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
      user: User,
      tenantCode: string,
      input: NewPurchaseInvoice
    ): Effect.Effect<PurchaseInvoice, Forbidden | NotFound | ValidationFailed | Conflict> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        return yield* book.create(tenant, input)
      }).pipe(Effect.withSpan("PurchaseInvoices.create"))

    const get = (user: User, tenantCode: string, id: string): Effect.Effect<PurchaseInvoice, Forbidden | NotFound> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        return yield* book.find(tenant, id)
      })

    const list = (
      user: User,
      tenantCode: string,
      request: InvoiceListRequest
    ): Effect.Effect<PurchaseInvoiceListPage, Forbidden | NotFound | ValidationFailed> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        return yield* book.page(tenant, request)
      }).pipe(Effect.withSpan("PurchaseInvoices.list"))

    return { create, get, list } as const
  })
}) {}
