import type { Option } from "effect"
import type { PrefilledCustomer } from "./DirectDebit.js"
import type { User } from "../../users/User.js"
import type { BillingAddress } from "./BillingAddress.js"

const splitName = (name: string) => {
  const parts = name.trim().split(/\s+/)
  return parts.length < 2
    ? { givenName: parts[0] || null, familyName: null }
    : { givenName: parts.slice(0, -1).join(" "), familyName: parts.at(-1) ?? null }
}

/**
 * The provider's customer for a setup: from the billing profile when there is one, else from
 * the user. None when neither has an email address.
 */
export const prefilledCustomer = (user: User, profile: Option.Option<BillingAddress>): PrefilledCustomer | null => {
  if (profile._tag === "Some") {
    const address = profile.value
    return {
      ...splitName(user.name),
      companyName: address.companyName,
      email: address.billingEmail,
      addressLine1: address.addressLine1,
      addressLine2: address.addressLine2,
      addressLine3: address.addressLine3,
      postalCode: address.postcode,
      countryCode: address.country
    }
  }
  if (user.email === null) return null
  return {
    ...splitName(user.name),
    companyName: null,
    email: user.email,
    addressLine1: null,
    addressLine2: null,
    addressLine3: null,
    postalCode: null,
    countryCode: null
  }
}
