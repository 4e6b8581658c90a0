import { Schema } from "effect"
import { PurchaseInvoiceId } from "../Ids.js"
import { invoiceFields, invoiceTotal } from "./Invoice.js"

/**
 * An invoice a supplier sent the tenant, under the supplier's own number (unique among that
 * supplier's invoices to the tenant); the CIS deduction is the tenant's (a contractor's). Money
 * in pence; dates as YYYY-MM-DD.
 */
export class PurchaseInvoice extends Schema.Class<PurchaseInvoice>("PurchaseInvoice")({
  id: PurchaseInvoiceId,
  ...invoiceFields
}) {
  get total(): number {
    return invoiceTotal(this)
  }
}
