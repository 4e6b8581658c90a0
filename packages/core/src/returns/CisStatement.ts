import { deductionPercent } from "./DeductionRate.js"
import type { MonthlyReturn, ReturnLine } from "./MonthlyReturn.js"

/**
 * A payment and deduction statement: what a contractor must give each subcontractor it paid in
 * a tax month (CISR72060). Money in pence.
 */
export interface CisStatement {
  readonly contractor: {
    readonly name: string
    readonly utr: string | null
    /** The employer PAYE reference the return was filed under; null on a return filed before schemes were registered. */
    readonly employerReference: string | null
  }
  /** The tax month, by its last day: YYYY-MM-05. */
  readonly periodEnd: string
  readonly subcontractor: {
    readonly code: string
    readonly name: string
    readonly utr: string | null
    readonly taxTreatment: ReturnLine["taxTreatment"]
    /** Shown only where the higher (unmatched) rate was deducted, as HMRC requires. */
    readonly verificationNumber: string | null
  }
  readonly grossAmount: number
  readonly materials: number
  readonly liableToDeduction: number
  readonly deductionPercent: number
  readonly deducted: number
  readonly netPaid: number
}

/**
 * Whether a return gives its subcontractors statements (listed, mailed, delivered): an Accepted
 * one, filed for real. The one place that says so: a return filed only as a test of the gateway
 * (GOVTALK_TEST=true, its `gatewayTest`) filed nothing and gives none.
 */
export const issuesStatements = (r: MonthlyReturn): boolean => r.status === "Accepted" && !r.gatewayTest

export const cisStatement = (r: MonthlyReturn, line: ReturnLine): CisStatement => ({
  contractor: {
    name: r.contractor.name,
    utr: r.contractor.utr,
    employerReference: r.contractor.scheme?.employerReference ?? null
  },
  periodEnd: r.periodEnd,
  subcontractor: {
    code: line.contactCode,
    name: line.name,
    utr: line.utr,
    taxTreatment: line.taxTreatment,
    verificationNumber: line.taxTreatment === "Unmatched" ? line.verificationNumber : null
  },
  grossAmount: line.grossAmount,
  materials: line.materials,
  liableToDeduction: line.grossAmount - line.materials,
  deductionPercent: deductionPercent[line.taxTreatment],
  deducted: line.deducted,
  netPaid: line.grossAmount - line.deducted
})

/** The statement's file name: `statement-<code>-<periodEnd>.pdf`. */
export const statementFileName = (statement: CisStatement) =>
  `statement-${statement.subcontractor.code}-${statement.periodEnd}.pdf`

/** A statement's PDF file, as a person downloads it. */
export interface StatementFile {
  readonly filename: string
  readonly content: Uint8Array
}
