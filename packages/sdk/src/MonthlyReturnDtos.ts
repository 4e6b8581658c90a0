import { ContactReference } from "@cisbook/core/ContactReference"
import { Pounds } from "@cisbook/core/Money"
import { MAX_RETURN_LINES, ReturnLines } from "@cisbook/core/returns/ReturnInput"
import { PeriodEnd } from "@cisbook/core/returns/TaxMonth"
import { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { Schema } from "effect"

const money =
  "Money is a JSON number of pounds with at most 2 decimal places (a third is refused); the SDK speaks pence."

const NewReturnLine = Schema.Struct({
  contact: ContactReference.annotations({ description: "The code of a verified CIS subcontractor of the tenant" }),
  grossAmount: Pounds.annotations({ description: "Total paid to the subcontractor in the tax month, in pounds" }),
  materials: Pounds.annotations({ description: "The direct cost of materials, in pounds: at most grossAmount" }),
  deducted: Pounds.annotations({
    description: "The CIS deducted, in pounds: at most the treatment's rate of (grossAmount − materials)"
  })
})

// Optional on both sides, so that a caller of the SDK leaves out what it does not use; null is the same as omitted.
const Flag = (description: string) =>
  Schema.optionalWith(Schema.Boolean.annotations({ description }), { nullable: true })

/**
 * Decodes to core's NewMonthlyReturn (money in pence); the rules between its members are the use
 * case's, checked before anything else.
 */
export const CreateMonthlyReturnRequest = Schema.Struct({
  periodEnd: PeriodEnd.annotations({
    description: "The tax month, by its last day (the 5th); not after the current tax month's end"
  }),
  nilReturn: Flag("Default false. True for a month in which no subcontractors were paid: the return then has no lines"),
  inactive: Flag(
    "Default false. With a nil return only: the contractor expects to pay no subcontractors in the next six months"
  ),
  lines: Schema.optionalWith(ReturnLines(NewReturnLine), { nullable: true }).annotations({
    description: `1–${MAX_RETURN_LINES} lines; none on a nil return, or one filed fromPayments`
  }),
  fromPayments: Flag(
    "Default false. True files the draft of the month's payments to CIS subcontractors as it stands (GET .../monthly-returns/draft): its lines, or a nil return when it has none; lines and nilReturn are then left out (400). A draft with a VerifyAgain warning is 400 naming that line's lines[i].contact"
  )
}).annotations({
  identifier: "CreateMonthlyReturnRequest",
  parseOptions: { errors: "all" },
  description: `A CIS300 return for one tax month, with one line per subcontractor paid in it; or a nil return (nilReturn true, no lines) for a month with no payments to subcontractors. ${money}`,
  examples: [
    {
      periodEnd: "2026-06-05",
      lines: [{ contact: "JOHNSMIT", grossAmount: 100000, materials: 40000, deducted: 12000 }]
    },
    { periodEnd: "2026-07-05", nilReturn: true, inactive: true },
    { periodEnd: "2026-08-05", fromPayments: true }
  ]
})

export const MonthlyReturnDraftParams = Schema.Struct({
  periodEnd: PeriodEnd.annotations({
    description: "The tax month, by its last day (the 5th); not after the current tax month's end"
  })
}).annotations({ parseOptions: { errors: "all" } })

const DraftPaymentDto = Schema.Struct({
  purchaseInvoice: Schema.String.annotations({ description: "The purchase invoice's id" }),
  invoiceNumber: Schema.String,
  payment: Schema.String.annotations({ description: "The payment's id" }),
  date: Schema.String.annotations({ format: "date" }),
  amount: Pounds,
  grossAmount: Pounds,
  materials: Pounds,
  deducted: Pounds
}).annotations({ identifier: "MonthlyReturnDraftPaymentDto" })

const DraftLineDto = Schema.Struct({
  contact: Schema.String.annotations({ description: "The subcontractor's contact code" }),
  name: Schema.String.annotations({ description: "The subcontractor's name now" }),
  utr: Schema.NullOr(Schema.String),
  verificationNumber: Schema.NullOr(Schema.String),
  taxTreatment: Schema.NullOr(TaxTreatment).annotations({
    description: "The contact's verified treatment now; null when it is not verified"
  }),
  grossAmount: Pounds,
  materials: Pounds,
  deducted: Pounds,
  payments: Schema.Array(DraftPaymentDto).annotations({ description: "The month's payments, by date" })
}).annotations({ identifier: "MonthlyReturnDraftLineDto" })

export const DraftWarningCode = Schema.Literal("VerifyAgain", "MaterialsNotBelowGross", "TreatmentChanged")

const DraftWarningDto = Schema.Struct({
  contact: Schema.String,
  code: DraftWarningCode.annotations({
    description:
      "VerifyAgain: last verified before the tax year two before this one and on none of the tenant's accepted returns since (the return cannot be filed fromPayments); MaterialsNotBelowGross: the line's materials are not below its gross; TreatmentChanged: a bill paid was worked at another treatment than the contact's current one"
  }),
  message: Schema.String.annotations({ description: "A sentence a person reads" })
}).annotations({ identifier: "MonthlyReturnDraftWarningDto" })

export const MonthlyReturnDraftDto = Schema.Struct({
  periodEnd: Schema.String.annotations({ format: "date" }),
  dueDate: Schema.String.annotations({ format: "date", description: "The 19th after the tax month ends" }),
  nilReturn: Schema.Boolean.annotations({ description: "No payment in the month: no lines" }),
  totals: Schema.Struct({ grossAmount: Pounds, materials: Pounds, deducted: Pounds }),
  lines: Schema.Array(DraftLineDto).annotations({ description: "One per CIS subcontractor paid, by name then code" }),
  warnings: Schema.Array(DraftWarningDto)
}).annotations({
  identifier: "MonthlyReturnDraftDto",
  description: `The return the tenant's payments to its CIS subcontractors draft for a tax month (payments dated from the 6th of the month before to the 5th). Amounts stay in pence here; the CIS300 carries whole pounds rounded down. ${money}`,
  examples: [
    {
      periodEnd: "2026-06-05",
      dueDate: "2026-06-19",
      nilReturn: false,
      totals: { grossAmount: 256700, materials: 36700, deducted: 44000 },
      lines: [
        {
          contact: "JOHNSMIT",
          name: "John Smith Groundworks",
          utr: "2234567890",
          verificationNumber: "V1234567890",
          taxTreatment: "Net",
          grossAmount: 256700,
          materials: 36700,
          deducted: 44000,
          payments: [
            {
              purchaseInvoice: "0196a5f2-4e10-7b55-a2c4-3f9d0c1e7a11",
              invoiceNumber: "JS-0012",
              payment: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a002",
              date: "2026-05-20",
              amount: 212700,
              grossAmount: 256700,
              materials: 36700,
              deducted: 44000
            }
          ]
        }
      ],
      warnings: []
    }
  ]
})
export type MonthlyReturnDraftDto = typeof MonthlyReturnDraftDto.Type

// A return as the API shows it is the `data` of its events, which core writes with the change.
export {
  HmrcReceiptEventData as HmrcReceiptDto,
  MonthlyReturnEventData as MonthlyReturnDto,
  MonthlyReturnLineEventData as MonthlyReturnLineDto
} from "@cisbook/core/returns/MonthlyReturnEventData"
