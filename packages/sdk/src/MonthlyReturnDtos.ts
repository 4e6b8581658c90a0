import { NewMonthlyReturn } from "@cisbook/core/returns/ReturnInput"

const money =
  "Money is a JSON number of pounds with at most 2 decimal places (a third is refused); the SDK speaks pence."

export const CreateMonthlyReturnRequest = NewMonthlyReturn.annotations({
  identifier: "CreateMonthlyReturnRequest",
  parseOptions: { errors: "all" },
  description: `A CIS300 return for one tax month, with one line per subcontractor paid in it. ${money}`,
  examples: [
    {
      periodEnd: "2026-06-05",
      lines: [{ contact: "JOHNSMIT", grossAmount: 100000, materials: 40000, deducted: 12000 }]
    }
  ]
})

export { MonthlyReturnDto, MonthlyReturnLineDto } from "@cisbook/core/returns/MonthlyReturnView"
