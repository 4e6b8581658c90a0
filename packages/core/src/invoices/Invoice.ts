import { Schema } from "effect"
import { ContactId, TenantId } from "../Ids.js"
import { Pence } from "../Money.js"

/**
 * The members every invoice has, whichever side of it the tenant is on (each side adds its id
 * and what only it has). Money in pence; dates as YYYY-MM-DD.
 */
export const invoiceFields = {
  tenantId: TenantId,
  number: Schema.String,
  contactId: ContactId,
  /** The contact's code, which never changes while it has invoices. */
  contactCode: Schema.String,
  issueDate: Schema.String,
  dueDate: Schema.String,
  reference: Schema.NullOr(Schema.String),
  subtotal: Pence,
  vat: Pence,
  /** The CIS deduction the contractor (the customer, or the tenant) takes from the payments. */
  cisDeduction: Pence,
  createdAt: Schema.DateFromSelf
}

/** An invoice's members, with its id. */
export type InvoiceMembers<Id> = Schema.Struct.Type<typeof invoiceFields> & { readonly id: Id }

/** Subtotal plus VAT. */
export const invoiceTotal = (invoice: { readonly subtotal: number; readonly vat: number }): number =>
  invoice.subtotal + invoice.vat
