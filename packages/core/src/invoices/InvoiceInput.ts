import { Schema } from "effect"
import { ContactReference } from "../ContactReference.js"
import { CalendarDate } from "../CalendarDate.js"
import type { FieldErrors } from "../Errors.js"
import { Pounds } from "../Money.js"

/** Omitted and `null` mean the same. */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { nullable: true })

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

const invoiceFields = {
  contact: ContactReference,
  issueDate: CalendarDate,
  dueDate: CalendarDate.annotations({ description: "On or after issueDate" }),
  reference: optional(InvoiceReference),
  subtotal: Pounds.annotations({ description: "The amount net of VAT, in pounds" }),
  vat: Pounds.annotations({ description: "The VAT, in pounds" }),
  cisDeduction: optional(Pounds).annotations({
    description: "The CIS deduction, in pounds: at most the subtotal. Default 0."
  })
}
/** What a new invoice of either side says, decoded. */
export type NewInvoice = Schema.Struct.Type<typeof invoiceFields>

/** A new sales invoice as it comes over the wire (CreateSalesInvoiceRequest); money in pence once decoded. */
export const NewSalesInvoiceFields = {
  ...invoiceFields,
  contact: ContactReference.annotations({ description: "The code of a customer of the tenant" }),
  number: optional(InvoiceNumberText).annotations({
    description: "Unique in the tenant; omitted, the next INV-000001-style number"
  })
}
export type NewSalesInvoice = Schema.Struct.Type<typeof NewSalesInvoiceFields>

/** A new purchase invoice as it comes over the wire (CreatePurchaseInvoiceRequest). */
export const NewPurchaseInvoiceFields = {
  ...invoiceFields,
  contact: ContactReference.annotations({ description: "The code of a supplier of the tenant" }),
  number: InvoiceNumberText.annotations({ description: "The supplier's number: unique among its invoices" })
}
export type NewPurchaseInvoice = Schema.Struct.Type<typeof NewPurchaseInvoiceFields>

/** A payment towards a sales invoice (CreateSalesInvoicePaymentRequest). */
export const NewPaymentFields = {
  date: CalendarDate.annotations({ description: "The day the money was received" }),
  amount: PaymentAmount.annotations({ description: "In pounds: more than 0 and at most the invoice's amountDue" }),
  reference: optional(InvoiceReference)
}
export type NewPayment = Schema.Struct.Type<typeof NewPaymentFields>

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
