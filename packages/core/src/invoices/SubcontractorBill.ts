import { Effect } from "effect"
import type { Contact, TaxTreatment } from "../contacts/Contact.js"
import { ValidationFailed } from "../Errors.js"
import { formatPounds } from "../Money.js"
import { deductionDue, deductionPercent } from "../returns/DeductionRate.js"
import type { NewPurchaseInvoice } from "./InvoiceInput.js"

/** What a bill's supplier decides of its CIS figures (pence). */
export interface BillDeduction {
  readonly materials: number
  readonly taxTreatment: TaxTreatment | null
  readonly cisDeduction: number
}

/**
 * The CIS figures of a new purchase invoice from `supplier`. A CIS subcontractor's bill needs
 * the subcontractor verified (HMRC: before the first payment), and its deduction is the one the
 * contractor must make: the verified treatment's rate of the subtotal less materials, rounded
 * down to the penny; a deduction given must be that figure. Another supplier's bill has no
 * materials and no treatment, and its deduction is as given.
 */
export const billDeduction = (
  supplier: Contact,
  input: NewPurchaseInvoice
): Effect.Effect<BillDeduction, ValidationFailed> => {
  const materials = input.materials ?? 0
  if (!supplier.isCisSubcontractor) {
    if (materials > 0)
      return ValidationFailed.one(
        "materials",
        `${supplier.code} is not a CIS subcontractor: only a CIS subcontractor's bill has materials`
      )
    return Effect.succeed({ materials: 0, taxTreatment: null, cisDeduction: input.cisDeduction ?? 0 })
  }
  const verification = supplier.verification
  const treatment = verification?.status === "Verified" ? verification.taxTreatment : null
  if (treatment === null)
    return ValidationFailed.one(
      "contact",
      `${supplier.code} is a CIS subcontractor who is not verified: verify it with HMRC before recording its bills (HMRC requires a verification before the first payment)`
    )
  if (materials > input.subtotal)
    return ValidationFailed.one("materials", "Must not be more than subtotal: materials are part of the gross")
  const due = deductionDue(treatment, input.subtotal, materials)
  if (input.cisDeduction !== undefined && input.cisDeduction !== due)
    return ValidationFailed.one(
      "cisDeduction",
      `Must be ${formatPounds(due)}: ${deductionPercent[treatment]} % (${treatment}) of subtotal less materials, rounded down to the penny; or leave it out`
    )
  return Effect.succeed({ materials, taxTreatment: treatment, cisDeduction: due })
}
