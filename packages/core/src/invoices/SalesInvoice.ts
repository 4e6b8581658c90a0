import { Schema } from "effect"
import { ContactId, SalesInvoiceId, SalesInvoicePaymentId, TenantId } from "../Ids.js"
import { Pence } from "../Money.js"

export const SalesInvoiceStatus = Schema.Literal("Open", "Paid")
export type SalesInvoiceStatus = typeof SalesInvoiceStatus.Type

/** An invoice the tenant sent a customer. Money in pence; dates as YYYY-MM-DD. */
export class SalesInvoice extends Schema.Class<SalesInvoice>("SalesInvoice")({
  id: SalesInvoiceId,
  tenantId: TenantId,
  /** Unique in the tenant. */
  number: Schema.String,
  contactId: ContactId,
  /** The customer's code, which never changes while it has invoices. */
  contactCode: Schema.String,
  issueDate: Schema.String,
  dueDate: Schema.String,
  reference: Schema.NullOr(Schema.String),
  subtotal: Pence,
  vat: Pence,
  /** The CIS deduction the customer (a contractor) takes from the payments. */
  cisDeduction: Pence,
  /** What the payments so far add up to. */
  amountPaid: Pence,
  createdAt: Schema.DateFromSelf
}) {
  get total(): number {
    return this.subtotal + this.vat
  }

  /** What the customer pays in all: the total less the CIS deduction. */
  get amountPayable(): number {
    return this.total - this.cisDeduction
  }

  get amountDue(): number {
    return this.amountPayable - this.amountPaid
  }

  get status(): SalesInvoiceStatus {
    return this.amountDue === 0 ? "Paid" : "Open"
  }
}

/** A payment towards a sales invoice, with the share of the invoice's CIS deduction it carries. */
export class SalesInvoicePayment extends Schema.Class<SalesInvoicePayment>("SalesInvoicePayment")({
  id: SalesInvoicePaymentId,
  tenantId: TenantId,
  invoiceId: SalesInvoiceId,
  date: Schema.String,
  amount: Pence,
  cisDeduction: Pence,
  reference: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) {}

/** A payment as the payments report lists it: with its invoice and the customer's name now. */
export interface ReportedPayment {
  readonly payment: SalesInvoicePayment
  readonly invoice: SalesInvoice
  readonly contactName: string
}
