import type { TaxTreatment } from "../contacts/Contact.js"

/** The CIS deduction rate of each tax treatment, in percent: gross 0, net 20 (standard), unmatched 30 (higher). */
export const deductionPercent: Record<TaxTreatment, number> = { Gross: 0, Net: 20, Unmatched: 30 }

/**
 * The most a contractor may deduct from a payment: the treatment's rate of the amount liable to
 * deduction (gross less materials), rounded half up to the penny. Amounts in pence.
 */
export const maxDeduction = (treatment: TaxTreatment, gross: number, materials: number): number => {
  const liable = Math.max(0, gross - materials)
  return Math.floor((liable * deductionPercent[treatment] + 50) / 100)
}

/**
 * The deduction a contractor must make from a payment to a subcontractor: the treatment's rate of
 * the amount liable to deduction (gross less materials), rounded down to the penny (HMRC,
 * CISR15100: the deduction is never more than the rate). Amounts in pence.
 */
export const deductionDue = (treatment: TaxTreatment, gross: number, materials: number): number => {
  const liable = Math.max(0, gross - materials)
  return Math.floor((liable * deductionPercent[treatment]) / 100)
}
