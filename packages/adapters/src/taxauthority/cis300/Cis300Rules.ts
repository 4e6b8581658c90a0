import { isValidCompanyNumber } from "@cisbook/core/cis/CompanyNumber"
import { isValidNiNumber } from "@cisbook/core/cis/NiNumber"
import { isValidUtr } from "@cisbook/core/cis/Utr"
import { formatPounds } from "@cisbook/core/Money"
import { deductionPercent } from "@cisbook/core/returns/DeductionRate"
import { nilReturnBreach, paymentLimitsBroken } from "@cisbook/core/returns/ReturnRules"
import { isValidAccountsOfficeReference } from "@cisbook/core/cis/CisScheme"
import type { Cis300Return, Cis300Subcontractor } from "./Cis300Return.js"

/** HMRC's largest amounts: payments and materials in whole pounds, deductions with pence. */
export const MAX_PAYMENT_PENCE = 99_999_999_00
export const MAX_DEDUCTED_PENCE = 99_999_999_99

/** The shape of HMRC's CIS300 schema for a verification number, written without a slash. */
const verificationNumberShape = /^V\d{10}[A-HJ-NP-Z]{0,2}$/
/** Names as the CIS schemas take them: under 36 characters for name parts, under 57 for a trading name. */
const namePart = /^[A-Za-z][A-Za-z'\- ]{0,34}$/
const surname = /^[A-Za-z0-9 ,.()/&'-]{1,35}$/
const tradingName = /^\S.{0,55}$/

const isPeriodEnd = (date: string) => {
  if (!/^\d{4}-\d{2}-05$/.test(date)) return false
  const month = Number(date.slice(5, 7))
  return month >= 1 && month <= 12
}

const subcontractorProblems = (s: Cis300Subcontractor): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const who =
    `${s.name ? [...s.name.forenames, s.name.surname].join(" ") : (s.tradingName ?? "")} (${s.worksRef})`.trim()
  const add = (problem: string) => problems.push(`${who}: ${problem}`)
  if (s.name) {
    if (s.name.forenames.length > 2) add("an individual has at most two forenames")
    if (s.name.forenames.some((n) => !namePart.test(n))) add("a forename must be 1–35 letters")
    if (!surname.test(s.name.surname)) add("the surname must be 1–35 characters")
  } else if (s.tradingName === null || !tradingName.test(s.tradingName)) {
    add("a name or a trading name of at most 56 characters is needed")
  }
  if (s.utr === null) {
    if (!s.unmatchedRate) add("a UTR is needed unless the deduction is at the higher (unmatched) rate")
  } else if (!isValidUtr(s.utr)) add(`the UTR ${s.utr} is not valid (its check digit does not match)`)
  if (s.nino !== null && !isValidNiNumber(s.nino)) add(`the NINO ${s.nino} is not valid`)
  if (s.crn !== null && !isValidCompanyNumber(s.crn)) add(`the CRN ${s.crn} is not valid`)
  if (s.unmatchedRate) {
    if (s.verificationNumber === null) add("an unmatched subcontractor needs its verification number")
    else if (!verificationNumberShape.test(s.verificationNumber))
      add(`the verification number ${s.verificationNumber} is not valid`)
  }
  const amounts = [s.totalPayments, s.costOfMaterials, s.totalDeducted]
  if (amounts.some((a) => !Number.isInteger(a) || a < 0)) add("amounts must be whole pence and not negative")
  if (s.totalPayments > MAX_PAYMENT_PENCE || s.costOfMaterials > MAX_PAYMENT_PENCE)
    add("payments and materials must be at most £99,999,999")
  if (s.totalDeducted > MAX_DEDUCTED_PENCE) add("the deduction must be at most £99,999,999.99")
  const broken = paymentLimitsBroken(s.taxTreatment, {
    gross: s.totalPayments,
    materials: s.costOfMaterials,
    deducted: s.totalDeducted
  })
  if (broken.materials) add("the cost of materials cannot exceed the total payments")
  if (broken.deduction && !s.drafted)
    add(
      `£${formatPounds(s.totalDeducted)} deducted is more than the ${deductionPercent[s.taxTreatment]} % (${s.taxTreatment}) rate allows: £${formatPounds(broken.deduction.most)}`
    )
  return problems
}

/**
 * What HMRC would refuse in a CIS300, checked before it is sent (its schema and business rules
 * as far as they are public): the period end a 5th; the contractor's UTR (check digit) and
 * Accounts Office reference (check letter); the employer reference; at least one subcontractor
 * unless a nil return, none on a nil return; per subcontractor a name or trading name, a valid
 * UTR (only an unmatched one may lack it), a valid NINO and CRN where given, the verification
 * number where unmatched, amounts in pence, not negative and within HMRC's bounds, materials
 * within payments, and a typed line's deduction within the rate of its treatment (a line drafted
 * from payments sums shares the service worked out itself); the declarations made.
 * Empty when HMRC would take it.
 */
export const cis300Problems = (r: Cis300Return): ReadonlyArray<string> => {
  const problems: Array<string> = []
  if (!isPeriodEnd(r.periodEnd)) problems.push(`The period end ${r.periodEnd} is not the 5th of a month.`)
  if (r.contractorUtr === null || !isValidUtr(r.contractorUtr))
    problems.push(`The contractor's UTR ${r.contractorUtr ?? "(none)"} is not valid.`)
  if (!isValidAccountsOfficeReference(r.scheme.accountsOfficeReference))
    problems.push(`The contractor's Accounts Office reference ${r.scheme.accountsOfficeReference} is not valid.`)
  if (!/^\d{3}$/.test(r.scheme.taxOfficeNumber) || !/^[A-Z0-9]{1,10}$/i.test(r.scheme.taxOfficeReference))
    problems.push(
      `The employer reference ${r.scheme.taxOfficeNumber}/${r.scheme.taxOfficeReference} is not valid (3 digits / up to 10 letters and digits).`
    )
  const breach = nilReturnBreach(r.nilReturn, r.subcontractors.length)
  if (breach === "NilWithLines") problems.push("A nil return lists no subcontractors.")
  if (breach === "NoLines") problems.push("A return lists at least one subcontractor, unless it is a nil return.")
  for (const s of r.subcontractors) problems.push(...subcontractorProblems(s).map((p) => `${p}.`))
  if (!r.declarations.informationCorrect) problems.push("The information must be declared correct.")
  if (!r.nilReturn && !(r.declarations.employmentStatus && r.declarations.verification))
    problems.push("The employment status and verification declarations must be made.")
  return problems
}
