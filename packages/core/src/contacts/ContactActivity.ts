import { Context, type Effect } from "effect"
import type { ContactId, TenantId } from "../Ids.js"

/**
 * What other capabilities hold about a contact, for the rules that refuse to remove a role or
 * the contact while it is in use. The invoices and connections capabilities answer it.
 */
export class ContactActivity extends Context.Tag("core/ContactActivity")<
  ContactActivity,
  {
    readonly hasSalesInvoices: (tenantId: TenantId, contactId: ContactId) => Effect.Effect<boolean>
    readonly hasPurchaseInvoices: (tenantId: TenantId, contactId: ContactId) => Effect.Effect<boolean>
    readonly hasConnections: (tenantId: TenantId, contactId: ContactId) => Effect.Effect<boolean>
  }
>() {}
