import type { TaxTreatment } from "../contacts/Contact.js"
import { maxDeduction } from "./DeductionRate.js"

/**
 * A nil return has no lines and any other return at least one: how a return with `lineCount`
 * lines breaks that, or null.
 */
export const nilReturnBreach = (nilReturn: boolean, lineCount: number): "NilWithLines" | "NoLines" | null =>
  nilReturn ? (lineCount > 0 ? "NilWithLines" : null) : lineCount === 0 ? "NoLines" : null

/**
 * The limits of a payment to a subcontractor (pence) that it breaks: materials above the gross;
 * a deduction above the treatment's rate of the gross less materials, with the most it may be
 * (checked only when the treatment is known). Each is checked on its own.
 */
export const paymentLimitsBroken = (
  treatment: TaxTreatment | null | undefined,
  payment: { readonly gross: number; readonly materials: number; readonly deducted: number }
): { readonly materials: boolean; readonly deduction: { readonly most: number } | null } => {
  const most = treatment == null ? null : maxDeduction(treatment, payment.gross, payment.materials)
  return {
    materials: payment.materials > payment.gross,
    deduction: most !== null && payment.deducted > most ? { most } : null
  }
}

/** What a return stored before schemes were registered cannot be sent without: HMRC files it under one. */
export const SCHEME_NOT_SET = "The contractor's CIS scheme registration is not set."
