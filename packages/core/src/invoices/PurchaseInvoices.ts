import { Effect, Option } from "effect"
import { Conflict, NotFound, type ValidationFailed } from "../Errors.js"
import { isUuid, PurchaseInvoiceId } from "../Ids.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { invoiceErrors, type NewPurchaseInvoice } from "./InvoiceInput.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import { PurchaseInvoice } from "./PurchaseInvoice.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { PurchaseInvoiceRepo } from "./PurchaseInvoiceRepo.js"
import { Transactor } from "../system/Transactor.js"
import { failIfAny } from "../Validation.js"
import { invoicedContact } from "./InvoicedContact.js"
import { invoicePage } from "./InvoicePage.js"

export interface PurchaseInvoiceListPage {
  readonly items: ReadonlyArray<PurchaseInvoice>
  readonly totalCount: number
  readonly offset: number
  /** The page size served: at most the maximum, whatever was asked. */
  readonly limit: number
}

/** An absent or blank optional string is no value. */
const text = (value: string | null | undefined) => (value ? value : null)

export class PurchaseInvoices extends Effect.Service<PurchaseInvoices>()("core/PurchaseInvoices", {
  effect: Effect.gen(function* () {
    const repo = yield* PurchaseInvoiceRepo
    const contacts = yield* ContactRepo
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    /**
     * Records a supplier's invoice. The contact stays locked until the invoice is in, so that a
     * concurrent removal of its supplier role, or of the contact, waits and then sees the invoice.
     */
    const create = (
      input: NewPurchaseInvoice
    ): Effect.Effect<PurchaseInvoice, NotFound | ValidationFailed | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        yield* failIfAny(invoiceErrors(input))
        const id = PurchaseInvoiceId.make(yield* ids.uuid)
        const createdAt = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const contact = yield* invoicedContact(contacts, tenant, input.contact, "Supplier")
            const invoice = new PurchaseInvoice({
              id,
              tenantId: tenant.id,
              number: input.number,
              contactId: contact.id,
              contactCode: contact.code,
              issueDate: input.issueDate,
              dueDate: input.dueDate,
              reference: text(input.reference),
              subtotal: input.subtotal,
              vat: input.vat,
              cisDeduction: input.cisDeduction ?? 0,
              createdAt
            })
            yield* repo.insert(invoice).pipe(
              Effect.catchTag("DuplicateKey", () =>
                Effect.fail(
                  new Conflict({
                    detail: `${contact.code} already has a purchase invoice numbered ${input.number} in ${tenant.code}.`
                  })
                )
              )
            )
            return invoice
          })
        )
      }).pipe(Effect.withSpan("PurchaseInvoices.create"))

    const get = (id: string): Effect.Effect<PurchaseInvoice, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const notFound = new NotFound({ detail: `There is no purchase invoice ${id} in ${tenant.code}.` })
        if (!isUuid(id)) return yield* notFound
        const found = yield* repo.findById(tenant.id, PurchaseInvoiceId.make(id))
        return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
      })

    const list = (
      request: InvoiceListRequest
    ): Effect.Effect<PurchaseInvoiceListPage, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* invoicePage(contacts, tenant, request, (query) => repo.list(tenant.id, query))
      }).pipe(Effect.withSpan("PurchaseInvoices.list"))

    return { create, get, list } as const
  })
}) {}
