import { Schema } from "effect"
import { TaxTreatment } from "../contacts/Contact.js"
import { PurchaseInvoiceId, PurchaseInvoicePaymentId, TenantId } from "../Ids.js"
import { Pence } from "../Money.js"
import { invoiceFields, invoiceTotal } from "./Invoice.js"
import { SalesInvoiceStatus } from "./SalesInvoice.js"

/** Open while an amount is due, then Paid: as a sales invoice. */
export const PurchaseInvoiceStatus = SalesInvoiceStatus
export type PurchaseInvoiceStatus = typeof PurchaseInvoiceStatus.Type

/**
 * An invoice a supplier sent the tenant, under the supplier's own number (unique among that
 * supplier's invoices to the tenant); the CIS deduction is the tenant's (a contractor's). A CIS
 * subcontractor's bill records the materials in its subtotal and the treatment its deduction was
 * worked at; another supplier's has no materials and no treatment. Money in pence; dates as
 * YYYY-MM-DD.
 */
export class PurchaseInvoice extends Schema.Class<PurchaseInvoice>("PurchaseInvoice")({
  id: PurchaseInvoiceId,
  ...invoiceFields,
  /** The part of the subtotal that is the subcontractor's cost of materials (0 for other suppliers). */
  materials: Pence,
  /** The treatment the CIS deduction was worked at: a CIS subcontractor's bill only. */
  taxTreatment: Schema.NullOr(TaxTreatment),
  /** What the payments so far add up to. */
  amountPaid: Pence
}) {
  get total(): number {
    return invoiceTotal(this)
  }

  /** What the tenant pays the supplier in all: the total less the CIS deduction. */
  get amountPayable(): number {
    return this.total - this.cisDeduction
  }

  get amountDue(): number {
    return this.amountPayable - this.amountPaid
  }

  get status(): PurchaseInvoiceStatus {
    return this.amountDue === 0 ? "Paid" : "Open"
  }

  /** A CIS subcontractor's bill: its payments go on the tenant's monthly returns. */
  get isCisBill(): boolean {
    return this.taxTreatment !== null
  }
}

/**
 * A payment to a supplier towards a purchase invoice, with the shares of the invoice's gross
 * (subtotal), materials and CIS deduction it carries (what a monthly return counts). Pence.
 */
export class PurchaseInvoicePayment extends Schema.Class<PurchaseInvoicePayment>("PurchaseInvoicePayment")({
  id: PurchaseInvoicePaymentId,
  tenantId: TenantId,
  invoiceId: PurchaseInvoiceId,
  date: Schema.String,
  amount: Pence,
  grossAmount: Pence,
  materials: Pence,
  deducted: Pence,
  reference: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) {}
