import { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { Pounds } from "@cisbook/core/Money"
import { Schema } from "effect"

/**
 * The payment and deduction statement of one line of an accepted monthly return, as its
 * contractor sees it: the subcontractor and the amounts as on the return, and how the statement
 * went out (by mail; into the subcontractor's own tenant when they are connected).
 */
export const ReturnStatementDto = Schema.Struct({
  contact: Schema.String.annotations({ description: "The subcontractor's contact code" }),
  name: Schema.String.annotations({ description: "The subcontractor's name when the return was filed" }),
  utr: Schema.NullOr(Schema.String),
  verificationNumber: Schema.NullOr(Schema.String).annotations({
    description: "As on the return; the statement itself shows it only where the treatment is Unmatched"
  }),
  taxTreatment: TaxTreatment,
  periodEnd: Schema.String.annotations({ description: "The tax month, by its last day (the 5th)", format: "date" }),
  grossAmount: Pounds.annotations({ description: "Gross amount paid, without VAT" }),
  materials: Pounds.annotations({ description: "Cost of materials" }),
  deducted: Pounds.annotations({ description: "Amount deducted" }),
  emailedTo: Schema.NullOr(Schema.String).annotations({
    description: "The address the statement was mailed to; null until the mail was handed to the SMTP server"
  }),
  emailedAt: Schema.NullOr(Schema.Date).annotations({
    description: "When the mail was handed to the SMTP server; null until then"
  }),
  deliveredTo: Schema.NullOr(Schema.String).annotations({
    description:
      "The code of the subcontractor's own tenant once the statement was delivered into it (the subcontractor is connected); null otherwise"
  })
}).annotations({
  identifier: "ReturnStatementDto",
  description:
    "The payment and deduction statement of one subcontractor on an accepted return. Money is a JSON number of pounds; the SDK speaks pence.",
  examples: [
    {
      contact: "JOHNSMIT",
      name: "John Smith Groundworks",
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      periodEnd: "2026-06-05",
      grossAmount: 100000,
      materials: 40000,
      deducted: 12000,
      emailedTo: "john@smith-groundworks.example",
      emailedAt: new Date("2026-06-10T10:02:00.000Z"),
      deliveredTo: "smith-groundworks"
    }
  ]
})
export type ReturnStatementDto = typeof ReturnStatementDto.Type
