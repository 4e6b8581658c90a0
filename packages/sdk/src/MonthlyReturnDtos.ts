import { CalendarDate } from "@cisbook/core/CalendarDate"
import { ContactReference } from "@cisbook/core/ContactReference"
import { Pounds } from "@cisbook/core/Money"
import { MAX_RETURN_LINES, ReturnLines } from "@cisbook/core/returns/ReturnInput"
import { PeriodEnd } from "@cisbook/core/returns/TaxMonth"
import { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { ObligationStatus } from "@cisbook/core/returns/Obligation"
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

const Declaration = (description: string) =>
  Schema.optionalWith(Schema.Boolean.annotations({ description }), { nullable: true })

const Declarations = Schema.Struct({
  employmentStatus: Declaration(
    "True: none of the subcontractors on the return is your employee. Required (true) on a return with lines; may be left out on a nil return"
  ),
  subcontractorsVerified: Declaration(
    "True: every subcontractor on the return was verified with HMRC, or was on one of your returns in this tax year or the two before. Required (true) on a return with lines; may be left out on a nil return"
  ),
  informationCorrect: Declaration("True: the information on the return is correct and complete. Always required (true)")
}).annotations({
  identifier: "CreateDeclarations",
  description:
    "The CIS300's declarations, which the contractor makes, not the service: a return with lines needs all three true, a nil return informationCorrect true; one missing or not true is 400 naming declarations.<member>"
})

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
  ),
  declarations: Schema.optionalWith(Declarations, { nullable: true }).annotations({
    description:
      "What the contractor declares: required (400 naming declarations.<member> when a declaration the return needs is missing or not true)"
  })
}).annotations({
  identifier: "CreateMonthlyReturnRequest",
  parseOptions: { errors: "all" },
  description: `A CIS300 return for one tax month, with one line per subcontractor paid in it; or a nil return (nilReturn true, no lines) for a month with no payments to subcontractors. ${money}`,
  examples: [
    {
      periodEnd: "2026-06-05",
      lines: [{ contact: "JOHNSMIT", grossAmount: 100000, materials: 40000, deducted: 12000 }],
      declarations: { employmentStatus: true, subcontractorsVerified: true, informationCorrect: true }
    },
    { periodEnd: "2026-07-05", nilReturn: true, inactive: true, declarations: { informationCorrect: true } },
    {
      periodEnd: "2026-08-05",
      fromPayments: true,
      declarations: { employmentStatus: true, subcontractorsVerified: true, informationCorrect: true }
    }
  ]
})

const Day = Schema.String.annotations({ format: "date" })

export const ObligationParams = Schema.Struct({
  from: Schema.optional(
    CalendarDate.annotations({
      description:
        "The tax months whose periodEnd is on or after this date (default: the twelve tax months ending with the current one)",
      examples: ["2025-12-05"]
    })
  ),
  to: Schema.optional(
    CalendarDate.annotations({
      description: "The tax months whose periodEnd is on or before this date (default: the current tax month's end)",
      examples: ["2026-11-05"]
    })
  )
}).annotations({ parseOptions: { errors: "all" } })

export const ObligationDto = Schema.Struct({
  periodEnd: Day.annotations({ description: "The tax month, by its last day (the 5th)", examples: ["2026-06-05"] }),
  dueDate: Day.annotations({ description: "When the return must reach HMRC: the 19th after periodEnd" }),
  status: ObligationStatus.annotations({
    description:
      "Filed: filed on or before dueDate. FiledLate: filed after it. Due: not filed, dueDate not passed. Overdue: not filed, dueDate passed. Inactive: not filed, within the six tax months after a nil return that declared the contractor inactive (nothing is due)"
  }),
  monthlyReturn: Schema.NullOr(Schema.String).annotations({
    description:
      "The id of the month's return that is Submitted, Held or Accepted (not one sent as a test); null when none (a Rejected return does not count). A Held return's month counts as not filed"
  }),
  filedOn: Schema.NullOr(Day).annotations({
    description:
      "The UTC date the return was filed (a return held and sent again: the date it was sent again); null while not filed"
  }),
  penalty: Pounds.annotations({
    description:
      "HMRC's late-filing penalty in pounds, as of filedOn or today while not filed: 0 by dueDate or Inactive; else 100, plus 200 once more than two months late, plus the greater of 300 and 5 % of the return's deductions (its totals.deducted, or the draft's while none is filed) once more than six months late, and the same again once more than twelve months late"
  })
}).annotations({
  identifier: "ObligationDto",
  description: "A contractor's obligation to file the CIS300 of one tax month, and where it stands",
  examples: [
    {
      periodEnd: "2026-06-05",
      dueDate: "2026-06-19",
      status: "FiledLate",
      monthlyReturn: "0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d",
      filedOn: "2026-06-23",
      penalty: 10000
    }
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
