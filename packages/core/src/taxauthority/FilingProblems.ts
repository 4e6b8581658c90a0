import type { FieldErrors } from "../Errors.js"
import { memberPath } from "../MemberPath.js"
import type { FilingProblem } from "./FilingCheck.js"

/** The CisDetails member each element of HMRC's subcontractor forms is written from. */
const memberOfElement: Readonly<Record<string, string>> = {
  Ttl: "title",
  Fore: "firstName",
  Sur: "lastName",
  TradingName: "tradingName",
  UTR: "utr",
  NINO: "niNumber",
  CRN: "companyNumber"
}

const add = (errors: Record<string, Array<string>>, member: string, message: string) => {
  const messages = (errors[member] ??= [])
  if (!messages.includes(message)) messages.push(message)
}

const refused = (problem: FilingProblem) => `HMRC's schema refuses it: ${problem.message}`

/**
 * What HMRC's schema refuses in a return, as a validation problem names it: each line's under
 * `lines[i].contact` (the subcontractor whose details HMRC cannot take), the rest under `$`.
 */
export const returnFilingErrors = (problems: ReadonlyArray<FilingProblem>): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  for (const problem of problems)
    add(errors, problem.line === null ? "$" : memberPath(["lines", problem.line, "contact"]), refused(problem))
  return errors
}

/** What HMRC's schema refuses in a verification request, under the contact's CisDetails member it comes from. */
export const verificationFilingErrors = (problems: ReadonlyArray<FilingProblem>): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  for (const problem of problems) {
    const member = problem.element === null ? undefined : memberOfElement[problem.element]
    add(errors, memberPath(member === undefined ? ["cisDetails"] : ["cisDetails", member]), refused(problem))
  }
  return errors
}

/** The problems as one sentence, for a verification that ends in an error instead of a 400. */
export const filingProblemText = (problems: ReadonlyArray<FilingProblem>): string =>
  `HMRC's schema refuses the verification request: ${problems.map((p) => p.message).join(" ")}`
