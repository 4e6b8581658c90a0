import { Schema } from "effect"
import type { Contact } from "../contacts/Contact.js"
import type { FieldErrors } from "../Errors.js"
import { ContactReference } from "../invoices/InvoiceInput.js"
import { formatPounds, Pounds } from "../invoices/Money.js"
import { memberPath } from "../MemberPath.js"
import { deductionPercent, maxDeduction } from "./DeductionRate.js"
import { PeriodEnd } from "./TaxMonth.js"

export const MAX_RETURN_LINES = 1000

export const NewReturnLine = Schema.Struct({
  contact: ContactReference.annotations({ description: "The code of a verified CIS subcontractor of the tenant" }),
  grossAmount: Pounds.annotations({ description: "Total paid to the subcontractor in the tax month, in pounds" }),
  materials: Pounds.annotations({ description: "The direct cost of materials, in pounds: at most grossAmount" }),
  deducted: Pounds.annotations({
    description: "The CIS deducted, in pounds: at most the treatment's rate of (grossAmount − materials)"
  })
})
export type NewReturnLine = typeof NewReturnLine.Type

/** CreateMonthlyReturnRequest; money in pence once decoded. */
export const NewMonthlyReturn = Schema.Struct({
  periodEnd: PeriodEnd.annotations({
    description: "The tax month, by its last day (the 5th); not after the current tax month's end"
  }),
  lines: Schema.Array(NewReturnLine).pipe(
    Schema.minItems(1, { message: () => "A return has at least one line" }),
    Schema.maxItems(MAX_RETURN_LINES, { message: () => `A return has at most ${MAX_RETURN_LINES} lines` })
  )
})
export type NewMonthlyReturn = typeof NewMonthlyReturn.Type

/** The rules a return's lines must meet beyond their shape, given the contacts they name (by upper-case code). */
export const lineErrors = (
  lines: ReadonlyArray<NewReturnLine>,
  contacts: ReadonlyMap<string, Contact>
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
    if (line.materials > line.grossAmount) add("materials", "Materials cannot be more than grossAmount")
    else if (treatment) {
      const most = maxDeduction(treatment, line.grossAmount, line.materials)
      if (line.deducted > most)
        add(
          "deducted",
          `At most ${formatPounds(most)} can be deducted: ${deductionPercent[treatment]} % (${treatment}) of grossAmount less materials`
        )
    }
  })
  return errors
}
