// The monthly returns' mapping module: their models as the sdk's MonthlyReturnDtos, for the handlers.

// A return's answer is its event data, core's: its events carry the same JSON.
export { monthlyReturnEventData as monthlyReturnDto } from "@cisbook/core/returns/MonthlyReturnEventData"
