import { Schema } from "effect"
import type { InvoiceMembers } from "./Invoice.js"
import { Pounds } from "../Money.js"

export const Day = Schema.String.annotations({ format: "date", examples: ["2026-04-06"] })

/**
 * The members every invoice shows on the wire, whichever side (each side adds its own, then
 * createdAt): a sales invoice's event data starts with them, and a purchase invoice's answer
 * shows the same. `contact` is the code of the `party`. Money in pounds on the wire, pence in code.
 */
export const invoiceEventFields = (party: "customer" | "supplier") => ({
  id: Schema.String,
  number: Schema.String,
  contact: Schema.String.annotations({ description: `The ${party}'s contact code` }),
  issueDate: Day,
  dueDate: Day,
  reference: Schema.NullOr(Schema.String),
  subtotal: Pounds,
  vat: Pounds,
  total: Pounds.annotations({ description: "subtotal + vat" }),
  cisDeduction: Pounds
})

/** The members of `invoiceEventFields`, of an invoice of either side. */
export const invoiceEventMembers = (invoice: InvoiceMembers<string> & { readonly total: number }) => ({
  id: invoice.id,
  number: invoice.number,
  contact: invoice.contactCode,
  issueDate: invoice.issueDate,
  dueDate: invoice.dueDate,
  reference: invoice.reference,
  subtotal: invoice.subtotal,
  vat: invoice.vat,
  total: invoice.total,
  cisDeduction: invoice.cisDeduction
})
