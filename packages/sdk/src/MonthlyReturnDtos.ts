import { ContactReference } from "@cisbook/core/ContactReference"
import { Pounds } from "@cisbook/core/Money"
import { MAX_RETURN_LINES, ReturnLines } from "@cisbook/core/returns/ReturnInput"
import { PeriodEnd } from "@cisbook/core/returns/TaxMonth"
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
    description: `1–${MAX_RETURN_LINES} lines; none on a nil return`
  })
}).annotations({
  identifier: "CreateMonthlyReturnRequest",
  parseOptions: { errors: "all" },
  description: `A CIS300 return for one tax month, with one line per subcontractor paid in it; or a nil return (nilReturn true, no lines) for a month with no payments to subcontractors. ${money}`,
  examples: [
    {
      periodEnd: "2026-06-05",
      lines: [{ contact: "JOHNSMIT", grossAmount: 100000, materials: 40000, deducted: 12000 }]
    },
    { periodEnd: "2026-07-05", nilReturn: true, inactive: true }
  ]
})

// A return as the API shows it is the `data` of its events, which core writes with the change.
export {
  HmrcReceiptEventData as HmrcReceiptDto,
  MonthlyReturnEventData as MonthlyReturnDto,
  MonthlyReturnLineEventData as MonthlyReturnLineDto
} from "@cisbook/core/returns/MonthlyReturnEventData"
