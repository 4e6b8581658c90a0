import { Schema } from "effect"
import { ContactId, PurchaseInvoiceId, TenantId } from "../Ids.js"
import { Pence } from "../Money.js"

/** An invoice a supplier sent the tenant. Money in pence; dates as YYYY-MM-DD. */
export class PurchaseInvoice extends Schema.Class<PurchaseInvoice>("PurchaseInvoice")({
  id: PurchaseInvoiceId,
  tenantId: TenantId,
  /** The supplier's own number: unique among that supplier's invoices to the tenant. */
  number: Schema.String,
  contactId: ContactId,
  /** The supplier's code, which never changes while it has invoices. */
  contactCode: Schema.String,
  issueDate: Schema.String,
  dueDate: Schema.String,
  reference: Schema.NullOr(Schema.String),
  subtotal: Pence,
  vat: Pence,
  /** The CIS deduction the tenant (a contractor) takes from what it pays. */
  cisDeduction: Pence,
  createdAt: Schema.DateFromSelf
}) {
  get total(): number {
    return this.subtotal + this.vat
  }
}
