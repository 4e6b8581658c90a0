import { Effect, Option } from "effect"
import type { Contact } from "../contacts/Contact.js"
import { ValidationFailed } from "../Errors.js"
import type { ContactRepo } from "../contacts/ContactRepo.js"
import type { Tenant } from "../tenants/Tenant.js"
import { lookUpContact, noSuchContact } from "../contacts/TenantContact.js"

export type InvoicedRole = "Customer" | "Supplier"

const hasRole = (contact: Contact, role: InvoicedRole) =>
  role === "Customer" ? contact.isCustomer : contact.isSupplier

/**
 * Inside the transaction that invoices it: the tenant's contact named in a request, which must
 * hold the role, locked so that the role cannot go (nor the contact) until the invoice is in.
 */
export const invoicedContact = (
  contacts: ContactRepo["Type"],
  tenant: Tenant,
  code: string,
  role: InvoicedRole
): Effect.Effect<Contact, ValidationFailed> =>
  Effect.flatMap(lookUpContact(contacts, tenant, code, true), (found) => {
    if (Option.isNone(found)) {
      return Effect.fail(ValidationFailed.one("contact", noSuchContact(tenant, code)))
    }
    const contact = found.value
    return hasRole(contact, role)
      ? Effect.succeed(contact)
      : Effect.fail(
          ValidationFailed.one(
            "contact",
            `${contact.code} is not a ${role.toLowerCase()}: give it the ${role} role before invoicing it.`
          )
        )
  })
