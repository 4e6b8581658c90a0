import { NewMonthlyReturn } from "@cisbook/core/returns/ReturnInput"

const money =
  "Money is a JSON number of pounds with at most 2 decimal places (a third is refused); the SDK speaks pence."

export const CreateMonthlyReturnRequest = NewMonthlyReturn.annotations({
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

export { HmrcReceiptDto, MonthlyReturnDto, MonthlyReturnLineDto } from "@cisbook/core/returns/MonthlyReturnView"
