import { Effect, Option } from "effect"
import { blankAsNull } from "../BlankAsNull.js"
import type { Contact } from "../contacts/Contact.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { Conflict, NotFound, type ValidationFailed } from "../Errors.js"
import { isUuid, type TenantId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { Transactor } from "../system/Transactor.js"
import type { Tenant } from "../tenants/Tenant.js"
import { failIfAny } from "../Validation.js"
import type { InvoiceMembers } from "./Invoice.js"
import { type InvoicedRole, invoicedContact } from "./InvoicedContact.js"
import { invoiceErrors, type NewInvoice } from "./InvoiceInput.js"
import { type InvoiceListPage, invoicePage } from "./InvoicePage.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import type { InvoiceStore } from "./InvoiceStore.js"

/**
 * The tenant's invoice `id` as `lookup` finds it, or NotFound naming the `kind` of invoice
 * ("sales invoice"): an id that is not a UUID is no invoice's.
 */
export const findInvoice =
  <Invoice, Id>(
    kind: string,
    toId: (id: string) => Id,
    lookup: (tenantId: TenantId, id: Id) => Effect.Effect<Option.Option<Invoice>>
  ) =>
  (tenant: Tenant, id: string): Effect.Effect<Invoice, NotFound> => {
    const notFound = new NotFound({ detail: `There is no ${kind} ${id} in ${tenant.code}.` })
    if (!isUuid(id)) return Effect.fail(notFound)
    return lookup(tenant.id, toId(id)).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed }))
    )
  }

/** What makes an invoice a sales or a purchase invoice, for the work both sides share. */
export interface InvoiceSide<Invoice, Id, Input extends NewInvoice> {
  /** As messages name it: "sales invoice". */
  readonly kind: string
  /** The role the invoiced contact must hold. */
  readonly role: InvoicedRole
  readonly store: InvoiceStore<Invoice, Id>
  readonly toId: (id: string) => Id
  /** Inside the invoice's transaction: the number it takes. */
  readonly number: (tenant: Tenant, input: Input) => Effect.Effect<string>
  /** Inside the invoice's transaction: the invoice of the members, from the contact the input names. */
  readonly make: (
    members: InvoiceMembers<Id>,
    contact: Contact,
    input: Input
  ) => Effect.Effect<Invoice, ValidationFailed>
  /** The Conflict's detail when the number is taken. */
  readonly numberTaken: (tenant: Tenant, contact: Contact, number: string) => string
  /** Inside the invoice's transaction, once the invoice is in. */
  readonly recorded: (tenant: Tenant, invoice: Invoice) => Effect.Effect<void>
}

/** The work sales and purchase invoices share, in the tenant a use case has already checked. */
export const invoiceBook = <Invoice, Id, Input extends NewInvoice>(side: InvoiceSide<Invoice, Id, Input>) =>
  Effect.gen(function* () {
    const contacts = yield* ContactRepo
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    /**
     * Invoices the tenant's contact. The contact stays locked until the invoice is in, so that a
     * concurrent removal of its role, or of the contact, waits and then sees the invoice.
     */
    const create = (tenant: Tenant, input: Input): Effect.Effect<Invoice, ValidationFailed | Conflict> =>
      Effect.gen(function* () {
        yield* failIfAny(invoiceErrors(input))
        const id = side.toId(yield* ids.uuid)
        const createdAt = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const contact = yield* invoicedContact(contacts, tenant, input.contact, side.role)
            const number = yield* side.number(tenant, input)
            const invoice = yield* side.make(
              {
                id,
                tenantId: tenant.id,
                number,
                contactId: contact.id,
                contactCode: contact.code,
                issueDate: input.issueDate,
                dueDate: input.dueDate,
                reference: blankAsNull(input.reference),
                subtotal: input.subtotal,
                vat: input.vat,
                cisDeduction: input.cisDeduction ?? 0,
                createdAt
              },
              contact,
              input
            )
            yield* side.store
              .insert(invoice)
              .pipe(
                Effect.catchTag("DuplicateKey", () =>
                  Effect.fail(new Conflict({ detail: side.numberTaken(tenant, contact, number) }))
                )
              )
            yield* side.recorded(tenant, invoice)
            return invoice
          })
        )
      })

    const page = (
      tenant: Tenant,
      request: InvoiceListRequest
    ): Effect.Effect<InvoiceListPage<Invoice>, ValidationFailed> =>
      invoicePage(contacts, tenant, request, (query) => side.store.list(tenant.id, query))

    return { create, find: findInvoice(side.kind, side.toId, side.store.findById), page } as const
  })
