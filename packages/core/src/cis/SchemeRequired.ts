import { type FieldErrors, ValidationFailed } from "../Errors.js"
import { describeFieldErrors } from "../Validation.js"

const errors: FieldErrors = {
  employerReference: ["The contractor's employer PAYE reference must be set first, for example 123/AB45678"],
  accountsOfficeReference: ["The contractor's Accounts Office reference must be set first, for example 123PW12345678"]
}

/**
 * The problem of a contractor without a CIS scheme registration: HMRC takes returns and
 * verifications only under the contractor's PAYE scheme.
 */
export const schemeRequired = new ValidationFailed({
  detail: `${describeFieldErrors(errors).replace(/\.$/, "")}: set the tenant's CIS scheme registration first.`,
  errors
})
