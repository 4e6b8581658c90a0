import { Schema } from "effect"
import { isValidUkPostcode, normalisePostcode } from "../../cis/Postcode.js"
import { Email } from "../../Email.js"
import { BillingAddress } from "./BillingAddress.js"
import { CountryCode } from "./CountryCode.js"

const required = (label: string, max: number) =>
  Schema.Trim.pipe(
    Schema.minLength(1, { message: () => `${label} is required` }),
    Schema.maxLength(max, { message: () => `${label} has at most ${max} characters` })
  )

/** An optional address line: blank, omitted or null all mean no line. */
const optionalLine = Schema.optionalWith(
  Schema.transform(Schema.NullOr(Schema.String), Schema.NullOr(Schema.String), {
    strict: true,
    decode: (line) => (line === null || line.trim() === "" ? null : line.trim()),
    encode: (line) => line
  }).pipe(Schema.filter((line) => line === null || line.length <= 200 || "An address line has at most 200 characters")),
  { nullable: true, default: () => null }
)

const Fields = Schema.Struct({
  companyName: required("A company name", 200),
  billingEmail: Email,
  addressLine1: required("An address line", 200),
  addressLine2: optionalLine,
  addressLine3: optionalLine,
  postcode: required("A postcode", 20),
  country: CountryCode
})

/**
 * The billing address as a caller gives it, not yet checked (the sdk's UpdateBillingProfileRequest
 * decodes to it): its rules, the members' and the GB postcode's, are BillingAddressInput's alone.
 */
export interface BillingAddressReplacement {
  readonly companyName: string
  readonly billingEmail: string
  readonly addressLine1: string
  readonly addressLine2?: string | null | undefined
  readonly addressLine3?: string | null | undefined
  readonly postcode: string
  readonly country: string
}

const ukPostcode = "Must be a UK postcode, for example SW1A 1AA"

/**
 * The billing address as a caller gives it, replaced whole: every member checked at once, and a
 * GB postcode checked against the UK format and stored upper case with one space.
 */
export const BillingAddressInput = Fields.pipe(
  Schema.filter((address) =>
    address.country !== "GB" || isValidUkPostcode(address.postcode) ? true : { path: ["postcode"], message: ukPostcode }
  ),
  Schema.transform(Schema.typeSchema(BillingAddress), {
    strict: true,
    decode: (address) =>
      new BillingAddress({
        ...address,
        postcode: address.country === "GB" ? normalisePostcode(address.postcode) : address.postcode
      }),
    encode: (address) => ({ ...address })
  })
)
