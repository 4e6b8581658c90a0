import { Schema } from "effect"
import type { FieldErrors } from "../Errors.js"
import { Pounds } from "../Money.js"

export const InvoiceNumberText = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "A number cannot be blank" }),
  Schema.maxLength(40, { message: () => "A number has at most 40 characters" }),
  Schema.annotations({ examples: ["INV-000042"] })
)

export const InvoiceReference = Schema.Trim.pipe(
  Schema.maxLength(200, { message: () => "A reference has at most 200 characters" }),
  Schema.annotations({ examples: ["PO 7781, Elm Street extension"] })
)

/** A payment moves money: nothing is not a payment. */
export const PaymentAmount = Pounds.pipe(
  Schema.filter((amount) => amount > 0 || "A payment must be more than 0"),
  Schema.annotations({ jsonSchema: { type: "number", exclusiveMinimum: 0, multipleOf: 0.01, examples: [600] } })
)

/**
 * What a new invoice of either side says, each member checked by its own rule (money in pence);
 * the rules between members are the use case's (invoiceErrors).
 */
export interface NewInvoice {
  /** The contact's code, in any case. */
  readonly contact: string
  readonly issueDate: string
  readonly dueDate: string
  readonly reference?: string | undefined
  readonly subtotal: number
  readonly vat: number
  readonly cisDeduction?: number | undefined
}

/** A new sales invoice (the sdk's CreateSalesInvoiceRequest decodes to it); no number, the next one. */
export interface NewSalesInvoice extends NewInvoice {
  readonly number?: string | undefined
}

/**
 * A new purchase invoice (the sdk's CreatePurchaseInvoiceRequest decodes to it): the supplier's
 * number; from a CIS subcontractor, the materials in its subtotal (SubcontractorBill).
 */
export interface NewPurchaseInvoice extends NewInvoice {
  readonly number: string
  readonly materials?: number | undefined
}

/** A payment towards an invoice of either side (the sdk's payment requests decode to it). */
export interface NewPayment {
  readonly date: string
  /** Pence, more than 0 (PaymentAmount); at most the invoice's amount due is the use case's rule. */
  readonly amount: number
  readonly reference?: string | undefined
}

/** The rules between an invoice's members, each under the member it asks to change. */
export const invoiceErrors = (input: {
  readonly issueDate: string
  readonly dueDate: string
  readonly subtotal: number
  readonly cisDeduction?: number | undefined
}): FieldErrors => ({
  ...(input.dueDate < input.issueDate ? { dueDate: ["Must be on or after issueDate"] } : {}),
  ...((input.cisDeduction ?? 0) > input.subtotal
    ? { cisDeduction: ["Must not be more than subtotal: the deduction is taken from the amount net of VAT"] }
    : {})
})
