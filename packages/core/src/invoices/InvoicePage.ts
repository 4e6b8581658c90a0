import { Effect, Option } from "effect"
import type { ValidationFailed } from "../Errors.js"
import type { InvoiceListQuery, InvoiceListRequest } from "./InvoiceQuery.js"
import type { InvoiceStorePage } from "./InvoiceStore.js"
import { pageAsked } from "../Paging.js"
import type { ContactRepo } from "../contacts/ContactRepo.js"
import type { Tenant } from "../tenants/Tenant.js"
import { lookUpContact } from "../contacts/TenantContact.js"

/** A page of invoices as a use case serves it. */
export interface InvoiceListPage<Invoice> extends InvoiceStorePage<Invoice> {
  readonly offset: number
  /** The page size served: at most the maximum, whatever was asked. */
  readonly limit: number
}

/**
 * The page of a tenant's invoices that a request asks for, of one contact when it names one: a
 * code no contact has has no invoices, so its page is empty rather than an error.
 */
export const invoicePage = <A>(
  contacts: ContactRepo["Type"],
  tenant: Tenant,
  request: InvoiceListRequest,
  list: (query: InvoiceListQuery) => Effect.Effect<InvoiceStorePage<A>>
): Effect.Effect<InvoiceListPage<A>, ValidationFailed> =>
  Effect.gen(function* () {
    const paging = yield* pageAsked(request)
    if (request.contact === undefined) return { ...(yield* list({ ...paging, contactId: null })), ...paging }
    const contact = yield* lookUpContact(contacts, tenant, request.contact)
    if (Option.isNone(contact)) return { items: [], totalCount: 0, ...paging }
    return { ...(yield* list({ ...paging, contactId: contact.value.id })), ...paging }
  })
