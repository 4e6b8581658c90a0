import { Schema } from "effect"
import type { Contact } from "../contacts/Contact.js"
import type { FieldErrors } from "../Errors.js"
import { formatPounds } from "../Money.js"
import { memberPath } from "../MemberPath.js"
import { deductionPercent } from "./DeductionRate.js"
import { nilReturnBreach, paymentLimitsBroken } from "./ReturnRules.js"
import type { NewDeclarations } from "./ReturnDeclarations.js"

export const MAX_RETURN_LINES = 1000

/** A line of a new return: a payment to a subcontractor in the tax month (pence). */
export interface NewReturnLine {
  /** The subcontractor's code, in any case. */
  readonly contact: string
  readonly grossAmount: number
  readonly materials: number
  readonly deducted: number
}

/** A return's lines, of whatever line schema: at most MAX_RETURN_LINES. */
export const ReturnLines = <A, I, R>(line: Schema.Schema<A, I, R>) =>
  Schema.Array(line).pipe(
    Schema.maxItems(MAX_RETURN_LINES, { message: () => `A return has at most ${MAX_RETURN_LINES} lines` })
  )

interface ReturnMembers<Line> {
  readonly nilReturn?: boolean | undefined
  readonly inactive?: boolean | undefined
  readonly lines?: ReadonlyArray<Line> | undefined
  /** The return is the draft of the tenant's payments to its subcontractors, as it stands: no lines of its own. */
  readonly fromPayments?: boolean | undefined
}

/** A return's optional members as they count when left out: not nil, not inactive, no lines. */
export const returnKind = <Line>(input: ReturnMembers<Line>) => ({
  nilReturn: input.nilReturn ?? false,
  inactive: input.inactive ?? false,
  lines: input.lines ?? []
})

/**
 * The rules between a return's members: a nil return has no lines and any other at least one;
 * only a nil return may declare the contractor inactive.
 */
export const returnShapeErrors = (input: ReturnMembers<unknown>): FieldErrors => {
  if (input.fromPayments === true) return fromPaymentsErrors(input)
  const r = returnKind(input)
  const errors: Record<string, Array<string>> = {}
  const breach = nilReturnBreach(r.nilReturn, r.lines.length)
  if (breach === "NilWithLines")
    errors.lines = ["A nil return has no lines: leave lines out, or set nilReturn to false"]
  if (breach === "NoLines")
    errors.lines = [
      "A return has at least one line; for a month with no payments to subcontractors, file a nil return (nilReturn: true)"
    ]
  if (r.inactive && !r.nilReturn)
    errors.inactive = ["Only a nil return can declare the contractor inactive (set nilReturn to true)"]
  return errors
}

/** A return drafted from payments takes its lines, or none, from the draft: it says neither itself. */
const fromPaymentsErrors = (input: ReturnMembers<unknown>): FieldErrors => ({
  ...(input.lines !== undefined
    ? { lines: ["A return drafted from payments has the draft's lines: leave lines out, or fromPayments"] }
    : {}),
  ...(input.nilReturn !== undefined
    ? { nilReturn: ["A return drafted from payments is nil when the draft is: leave nilReturn out, or fromPayments"] }
    : {})
})

/**
 * A new return, each member checked by its own rule (the sdk's CreateMonthlyReturnRequest decodes
 * to it); the rules between its members are the use case's (returnShapeErrors), checked before
 * anything else.
 */
export interface NewMonthlyReturn extends ReturnMembers<NewReturnLine> {
  /** The tax month, by its last day (PeriodEnd). */
  readonly periodEnd: string
  /** What the contractor declares (see declarationErrors): left out, nothing is declared. */
  readonly declarations?: NewDeclarations | undefined
}

/** The rules a return's lines must meet beyond their shape, given the contacts they name (by upper-case code). */
export const lineErrors = (
  lines: ReadonlyArray<NewReturnLine>,
  contacts: ReadonlyMap<string, Contact>,
  /** Whether `deducted` is held to the treatment's rate (not on a drafted line: the shares are the service's own). */
  rateCeiling = true
): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  const seen = new Set<string>()
  lines.forEach((line, i) => {
    const add = (member: keyof NewReturnLine, message: string) =>
      (errors[memberPath(["lines", i, member])] ??= []).push(message)
    const code = line.contact.toUpperCase()
    const contact = contacts.get(code)
    if (seen.has(code)) add("contact", `${code} is on the return more than once`)
    seen.add(code)
    const treatment = contact?.verification?.taxTreatment
    if (!contact || !contact.isCisSubcontractor) add("contact", `${code} is not a CIS subcontractor of the tenant`)
    else if (contact.verification?.status !== "Verified" || !treatment)
      add("contact", `${code} is not verified: verify the subcontractor before filing a return`)
    const broken = paymentLimitsBroken(rateCeiling ? treatment : null, {
      gross: line.grossAmount,
      materials: line.materials,
      deducted: line.deducted
    })
    if (broken.materials) add("materials", "Materials cannot be more than grossAmount")
    else if (broken.deduction && treatment)
      add(
        "deducted",
        `At most ${formatPounds(broken.deduction.most)} can be deducted: ${deductionPercent[treatment]} % (${treatment}) of grossAmount less materials`
      )
  })
  return errors
}
