import { CalendarDate } from "@cisbook/core/CalendarDate"
import { ContactReference } from "@cisbook/core/ContactReference"
import { MAX_PAGE_SIZE, PageLimit, PageOffset } from "@cisbook/core/Paging"
import { InvoiceNumberText, InvoiceReference, PaymentAmount } from "@cisbook/core/invoices/InvoiceInput"
import { Day, invoiceEventFields } from "@cisbook/core/invoices/InvoiceEventFields"
import { Pounds } from "@cisbook/core/Money"
import { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { PurchaseInvoiceStatus } from "@cisbook/core/invoices/PurchaseInvoice"
import {
  SalesInvoiceEventData as SalesInvoiceDto,
  SalesInvoicePaymentEventData as SalesInvoicePaymentDto
} from "@cisbook/core/invoices/SalesInvoiceEventData"
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

// A sales invoice as the API shows it is the `data` of its events, which core writes with the change.
export { SalesInvoiceDto, SalesInvoicePaymentDto }

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

const NewSalesInvoiceFields = {
  ...invoiceFields,
  contact: ContactReference.annotations({ description: "The code of a customer of the tenant" }),
  number: optional(InvoiceNumberText).annotations({
    description: "Unique in the tenant; omitted, the next INV-000001-style number"
  })
}

const NewPurchaseInvoiceFields = {
  ...invoiceFields,
  contact: ContactReference.annotations({ description: "The code of a supplier of the tenant" }),
  number: InvoiceNumberText.annotations({ description: "The supplier's number: unique among its invoices" }),
  materials: optional(Pounds).annotations({
    description:
      "A CIS subcontractor's bill only: the part of the subtotal that is its cost of materials, in pounds; at most the subtotal. Default 0."
  }),
  cisDeduction: optional(Pounds).annotations({
    description:
      "In pounds. A CIS subcontractor's bill: worked out by the service (the rate of the contact's verified taxTreatment × (subtotal − materials), rounded down to the penny); given, it must equal that figure. Another supplier's: as given, at most the subtotal, default 0."
  })
}

const NewPaymentFields = {
  date: CalendarDate.annotations({ description: "The day the money was received" }),
  amount: PaymentAmount.annotations({ description: "In pounds: more than 0 and at most the invoice's amountDue" }),
  reference: optional(InvoiceReference)
}

const money =
  "Money is a JSON number of pounds with at most 2 decimal places (a third is refused); the SDK speaks pence."

// Annotating again drops the identifier, so it is given again.
export const CreateSalesInvoiceRequest = requestBody("CreateSalesInvoiceRequest", NewSalesInvoiceFields).annotations({
  identifier: "CreateSalesInvoiceRequest",
  description: `A sales invoice to a customer. ${money}`,
  examples: [
    {
      contact: "ACMEBUIL",
      issueDate: "2026-04-06",
      dueDate: "2026-05-06",
      reference: "PO 7781",
      subtotal: 100000,
      vat: 20000,
      cisDeduction: 20000
    }
  ]
})

export const CreatePurchaseInvoiceRequest = requestBody(
  "CreatePurchaseInvoiceRequest",
  NewPurchaseInvoiceFields
).annotations({
  identifier: "CreatePurchaseInvoiceRequest",
  description: `An invoice from a supplier. ${money}`,
  examples: [
    {
      contact: "JOHNSMIT",
      number: "JS-0012",
      issueDate: "2026-04-10",
      dueDate: "2026-04-30",
      subtotal: 256700,
      vat: 0,
      materials: 36700
    }
  ]
})

export const CreatePurchaseInvoicePaymentRequest = requestBody("CreatePurchaseInvoicePaymentRequest", {
  ...NewPaymentFields,
  date: CalendarDate.annotations({
    description:
      "The day the money was paid; for a CIS subcontractor's bill, in a tax month whose return is not filed (else 409)"
  }),
  amount: PaymentAmount.annotations({
    description: "The money paid to the supplier, in pounds: more than 0 and at most the invoice's amountDue"
  })
}).annotations({
  identifier: "CreatePurchaseInvoicePaymentRequest",
  description: `A payment made to a supplier towards a purchase invoice. ${money}`,
  examples: [{ date: "2026-05-01", amount: 106350, reference: "BACS 5520" }]
})

export const CreateSalesInvoicePaymentRequest = requestBody(
  "CreateSalesInvoicePaymentRequest",
  NewPaymentFields
).annotations({
  identifier: "CreateSalesInvoicePaymentRequest",
  description: `A payment received towards a sales invoice. ${money}`,
  examples: [{ date: "2026-05-01", amount: 60000, reference: "BACS 4471" }]
})

const page = <A, I, R>(identifier: string, item: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    items: Schema.Array(item),
    totalCount: Schema.Int.annotations({ description: "Every matching invoice, on any page" }),
    offset: Schema.Int,
    limit: Schema.Int.annotations({ description: `The page size served: at most ${MAX_PAGE_SIZE}` })
  }).annotations({ identifier, description: "A page of invoices, newest issue date first" })

export const SalesInvoiceDtoPagedResult = page("SalesInvoiceDtoPagedResult", SalesInvoiceDto)

export const PurchaseInvoicePaymentDto = Schema.Struct({
  id: Schema.String,
  date: Day,
  amount: Pounds.annotations({ description: "The money paid to the supplier" }),
  reference: Schema.NullOr(Schema.String),
  grossAmount: Pounds.annotations({ description: "Its share of the invoice's subtotal (the gross a return counts)" }),
  materials: Pounds.annotations({ description: "Its share of the invoice's materials" }),
  deducted: Pounds.annotations({ description: "Its share of the invoice's CIS deduction" })
}).annotations({
  identifier: "PurchaseInvoicePaymentDto",
  description:
    "A payment towards a purchase invoice with its shares of the invoice's figures: each figure × amount / (total − cisDeduction), rounded half up to the penny; the payment that completes the invoice takes what is left, so a paid invoice's shares add up to its figures. Amounts in pounds.",
  examples: [
    {
      id: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a002",
      date: "2026-05-01",
      amount: 106350,
      reference: "BACS 5520",
      grossAmount: 128350,
      materials: 18350,
      deducted: 22000
    }
  ]
})
export type PurchaseInvoicePaymentDto = typeof PurchaseInvoicePaymentDto.Type

const purchaseInvoiceFields = {
  ...invoiceEventFields("supplier"),
  materials: Pounds.annotations({
    description: "The subcontractor's cost of materials in the subtotal; 0 for other suppliers"
  }),
  taxTreatment: Schema.NullOr(TaxTreatment).annotations({
    description: "A CIS subcontractor's bill: the treatment its cisDeduction was worked at; null for other suppliers"
  }),
  amountPaid: Pounds,
  amountDue: Pounds.annotations({ description: "total − cisDeduction − amountPaid" }),
  status: PurchaseInvoiceStatus.annotations({ description: "Paid once amountDue is 0, else Open" }),
  payments: Schema.optional(Schema.Array(PurchaseInvoicePaymentDto)).annotations({
    description: "Oldest first; only on the single-invoice GET"
  }),
  createdAt: Schema.Date
}

const purchaseInvoiceExample: Schema.Struct.Type<typeof purchaseInvoiceFields> = {
  id: "0196a5f2-4e10-7b55-a2c4-3f9d0c1e7a11",
  number: "JS-0012",
  contact: "JOHNSMIT",
  issueDate: "2026-04-10",
  dueDate: "2026-04-30",
  reference: null,
  subtotal: 256700,
  vat: 0,
  total: 256700,
  cisDeduction: 44000,
  materials: 36700,
  taxTreatment: "Net",
  amountPaid: 106350,
  amountDue: 106350,
  status: "Open",
  payments: [
    {
      id: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a002",
      date: "2026-05-01",
      amount: 106350,
      reference: "BACS 5520",
      grossAmount: 128350,
      materials: 18350,
      deducted: 22000
    }
  ],
  createdAt: new Date("2026-04-10T09:00:00.000Z")
}

export const PurchaseInvoiceDto = Schema.Struct(purchaseInvoiceFields).annotations({
  identifier: "PurchaseInvoiceDto",
  description: "An invoice a supplier sent the tenant; a CIS subcontractor's bill with its materials and treatment",
  examples: [purchaseInvoiceExample]
})
export type PurchaseInvoiceDto = typeof PurchaseInvoiceDto.Type

export const PurchaseInvoiceDtoPagedResult = page("PurchaseInvoiceDtoPagedResult", PurchaseInvoiceDto)

const fromString = <A>(schema: Schema.Schema<A, number>) => Schema.compose(Schema.NumberFromString, schema)

export const InvoiceListParams = Schema.Struct({
  offset: Schema.optional(
    fromString(PageOffset).annotations({ description: "Invoices to skip; 0 or more", default: 0 })
  ),
  limit: Schema.optional(
    fromString(PageLimit).annotations({
      description: `Invoices per page, 1 or more; above ${MAX_PAGE_SIZE} is served as ${MAX_PAGE_SIZE}`,
      default: 10
    })
  ),
  contact: Schema.optional(
    Schema.String.annotations({ description: "Only this contact's invoices (its code, in any case)" })
  )
}).annotations({ parseOptions: { errors: "all" } })

// Checked by the use case, which names each bad bound; here only documented.
const bound = (description: string) =>
  Schema.String.annotations({
    description: `${description}: a date-time (RFC 3339; without an offset it is UTC) or a date. Its UTC calendar date counts.`,
    format: "date-time",
    examples: ["2026-04-06T00:00:00Z"]
  })

export const PaymentsReportParams = Schema.Struct({
  from: bound("The first day of the report, included"),
  to: bound("The last day of the report, included")
}).annotations({ parseOptions: { errors: "all" } })

/** The Accept header picks the report's form; any other header value gets JSON. */
export const PaymentsReportHeaders = Schema.Struct({
  accept: Schema.optional(Schema.String.annotations({ description: "text/csv for the report as CSV; JSON otherwise" }))
})

export const SalesInvoicePaymentsReportItem = Schema.Struct({
  paymentId: Schema.String,
  paymentDate: Day,
  amount: Pounds,
  cisDeduction: Pounds.annotations({
    description:
      "The payment's share of its invoice's CIS deduction: the deduction × amount / (total − deduction), rounded to the penny; the payment that completes the invoice takes what is left, so a paid invoice's shares add up to its deduction"
  }),
  invoiceId: Schema.String,
  invoiceNumber: Schema.String,
  invoiceDate: Day.annotations({ description: "The invoice's issue date" }),
  invoiceDueDate: Day,
  invoiceReference: Schema.NullOr(Schema.String),
  contactCode: Schema.String,
  contactName: Schema.String
}).annotations({
  identifier: "SalesInvoicePaymentsReportItem",
  examples: [
    {
      paymentId: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a001",
      paymentDate: "2026-05-01",
      amount: 60000,
      cisDeduction: 12000,
      invoiceId: "0196a5f2-4e10-7b55-a2c4-3f9d0c1e7a10",
      invoiceNumber: "INV-000042",
      invoiceDate: "2026-04-06",
      invoiceDueDate: "2026-05-06",
      invoiceReference: "PO 7781",
      contactCode: "ACMEBUIL",
      contactName: "Acme Builders Ltd"
    }
  ]
})
export type SalesInvoicePaymentsReportItem = typeof SalesInvoicePaymentsReportItem.Type

export const SalesInvoicePaymentsReport = Schema.Array(SalesInvoicePaymentsReportItem).annotations({
  identifier: "SalesInvoicePaymentsReport",
  description: "Every payment dated in the period, oldest first (ties in the order they were recorded)"
})

/** The columns of the CSV form, in order: the JSON members' names. */
export const paymentsReportColumns = [
  "paymentId",
  "paymentDate",
  "amount",
  "cisDeduction",
  "invoiceId",
  "invoiceNumber",
  "invoiceDate",
  "invoiceDueDate",
  "invoiceReference",
  "contactCode",
  "contactName"
] as const satisfies ReadonlyArray<keyof SalesInvoicePaymentsReportItem>

const csvDescription = `The same report as CSV (RFC 4180, UTF-8, CRLF): a header row ${paymentsReportColumns.join(",")}, then one row per payment; amounts in pounds with 2 decimals. A cell that starts with =, +, -, @, a tab or a carriage return is prefixed with ' and quoted, so that a spreadsheet never runs it as a formula.`

const csvExample = `${paymentsReportColumns.join(",")}\r\n0196a5f2-52c1-7c3a-9d1e-8f27c1b6a001,2026-05-01,600.00,120.00,0196a5f2-4e10-7b55-a2c4-3f9d0c1e7a10,INV-000042,2026-04-06,2026-05-06,PO 7781,ACMEBUIL,Acme Builders Ltd\r\n`

export const SalesInvoicePaymentsCsv = HttpApiSchema.Text({ contentType: "text/csv" }).annotations({
  description: csvDescription,
  examples: [csvExample]
})

/** The OpenAPI form of the CSV response, beside the JSON one under the same status. */
export const salesInvoicePaymentsCsvMedia = {
  schema: { type: "string", description: csvDescription },
  example: csvExample
}
