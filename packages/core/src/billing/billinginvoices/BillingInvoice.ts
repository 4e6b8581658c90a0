import { Schema } from "effect"
import { BillingInvoiceId, MonthlyReturnId, TenantId, UserId } from "../../Ids.js"
import { InvoicePaymentStatus } from "./InvoicePaymentStatus.js"

/** One accepted return on an invoice. Money in pence. */
export class BillingInvoiceLine extends Schema.Class<BillingInvoiceLine>("BillingInvoiceLine")({
  description: Schema.String,
  tenantId: TenantId,
  /** The tenant's code when invoiced. */
  tenant: Schema.String,
  returnId: MonthlyReturnId,
  /** Subcontractors on the return. */
  quantity: Schema.Int,
  unitPrice: Schema.Int,
  amount: Schema.Int
}) {}

/**
 * An invoice of the service to one of its users. Money in pence. `finished` is false from the
 * run's transaction until its PDF is stored and its payment created (or found waiting for a mandate).
 */
export class BillingInvoice extends Schema.Class<BillingInvoice>("BillingInvoice")({
  id: BillingInvoiceId,
  userId: UserId,
  /** CB-000001, CB-000002, ... across the service. */
  number: Schema.String,
  issueDate: Schema.String,
  periodStart: Schema.String,
  periodEnd: Schema.String,
  currency: Schema.Literal("GBP"),
  subtotal: Schema.Int,
  vat: Schema.Int,
  total: Schema.Int,
  paymentStatus: InvoicePaymentStatus,
  /** The provider's payment id (PM...). */
  paymentReference: Schema.NullOr(Schema.String),
  /** The mandate (MD...) the payment collects on. */
  mandateReference: Schema.NullOr(Schema.String),
  hasPdf: Schema.Boolean,
  finished: Schema.Boolean,
  /** When its payment last failed; the billing run collects it again from 3 days later. */
  failedAt: Schema.NullOr(Schema.DateFromSelf),
  /** How many times the billing run asked the provider to retry its payment (at most 3). */
  paymentRetries: Schema.Int,
  /**
   * When its payment's status was last read from the provider by a listing, or moved by the
   * provider's event; null until then. A listing soon after does not ask the provider again.
   */
  paymentReadAt: Schema.NullOr(Schema.DateFromSelf)
}) {}

/** An invoice with its lines, in the order they were invoiced. */
export interface BillingInvoiceWithLines {
  readonly invoice: BillingInvoice
  readonly lines: ReadonlyArray<BillingInvoiceLine>
}

/** The service-wide invoice number of the n-th invoice: 1 is CB-000001. */
export const invoiceNumber = (n: number): string => `CB-${String(n).padStart(6, "0")}`
