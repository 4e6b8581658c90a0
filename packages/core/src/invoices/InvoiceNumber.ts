/** Sales invoices numbered by the service: INV-000001, INV-000002, ... (more digits past 999999). */
export const salesInvoiceNumber = (sequence: number): string => `INV-${String(sequence).padStart(6, "0")}`

/**
 * The sequence of a number the service could have issued, or null: an explicit INV-000042 takes
 * 42, so that automatic numbering continues above it instead of running into it.
 */
export const salesInvoiceSequence = (number: string): number | null => {
  const digits = /^INV-(\d{6,15})$/.exec(number)
  if (!digits) return null
  const sequence = Number(digits[1])
  return salesInvoiceNumber(sequence) === number ? sequence : null
}
