import type { MonthlyReturn } from "../returns/MonthlyReturn.js"

/** A monthly return (CIS300) as the tax authority receives it. */
export type ReturnSubmission = Pick<MonthlyReturn, "id" | "periodEnd" | "contractor" | "lines">

/** The tax authority's answer to a return. */
export type ReturnAnswer = { readonly _tag: "Accepted" } | { readonly _tag: "Rejected"; readonly reason: string }
