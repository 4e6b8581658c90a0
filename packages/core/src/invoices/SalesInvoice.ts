import { Schema } from "effect"
import { type ContactId, SalesInvoiceId, SalesInvoicePaymentId, TenantId } from "../Ids.js"
import { invoiceFields, invoiceTotal } from "./Invoice.js"
import { Pence } from "../Money.js"

export const SalesInvoiceStatus = Schema.Literal("Open", "Paid")
export type SalesInvoiceStatus = typeof SalesInvoiceStatus.Type

/**
 * An invoice the tenant sent a customer, numbered uniquely in the tenant; the CIS deduction is
 * the customer's (a contractor's). Money in pence; dates as YYYY-MM-DD.
 */
export class SalesInvoice extends Schema.Class<SalesInvoice>("SalesInvoice")({
  id: SalesInvoiceId,
  ...invoiceFields,
  /** What the payments so far add up to. */
  amountPaid: Pence
}) {
  get total(): number {
    return invoiceTotal(this)
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

/** A payment and the customer whose invoice it paid. */
export interface ContactPayment {
  readonly contactId: ContactId
  readonly payment: SalesInvoicePayment
}
