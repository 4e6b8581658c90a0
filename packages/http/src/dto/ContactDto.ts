// The contacts' mapping module: their models as the sdk's ContactDtos, for the handlers.
import { contactEventJson } from "@cisbook/core/contacts/ContactEventData"
import type { ContactListPage } from "@cisbook/core/contacts/Contacts"
import { HttpServerResponse } from "@effect/platform"

// A contact's answer is its event data, core's: its events carry the same JSON.
export { contactEventData as contactDto } from "@cisbook/core/contacts/ContactEventData"

/**
 * A page of contacts, its JSON built directly (contactEventJson is held equal to the schema's
 * encoding by tests): through the schema, encoding cost more than the query.
 */
export const contactPageResponse = (page: ContactListPage) =>
  HttpServerResponse.unsafeJson({ ...page, items: page.items.map(contactEventJson) })
