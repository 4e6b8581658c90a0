import { Schema } from "effect"

/**
 * Upper case, spaces removed, and the leading zeros that spreadsheets drop put back: a
 * numeric value is padded to 8 digits, a 2-letter prefix keeps 6 digits after it.
 */
export const normaliseCompanyNumber = (input: string): string => {
  const compact = input.replace(/\s+/g, "").toUpperCase()
  if (/^\d{1,7}$/.test(compact)) return compact.padStart(8, "0")
  const prefixed = /^([A-Z]{2})(\d{1,5})$/.exec(compact)
  return prefixed ? prefixed[1]! + prefixed[2]!.padStart(6, "0") : compact
}

// Only the forms HMRC's CIS schema accepts (2 letters + digits, or digits), so every stored
// number can be sent with a verification or a return. The rare NI/SL numbers ending in A and
// pre-partition R0 numbers fit neither and are refused.
const shape = /^([A-Z]{2}\d{6}|\d{8})$/

/** True for a company number in its 8-character form. */
export const isNormalisedCompanyNumber = (crn: string): boolean => shape.test(crn)

export const isValidCompanyNumber = (input: string): boolean => isNormalisedCompanyNumber(normaliseCompanyNumber(input))

/** A Companies House company registration number, decoded to its 8-character form. */
export const CompanyNumber = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter(
      (s) =>
        isNormalisedCompanyNumber(s) ||
        "Must be a Companies House number: 8 digits, or 2 letters and 6 digits, for example 01234567 or SC123456"
    ),
    Schema.brand("CompanyNumber")
  ),
  { strict: true, decode: normaliseCompanyNumber, encode: (crn) => crn }
).annotations({ title: "CompanyNumber", examples: ["01234567" as never] })
export type CompanyNumber = typeof CompanyNumber.Type
