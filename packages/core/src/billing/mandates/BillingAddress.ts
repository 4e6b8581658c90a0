import { Schema } from "effect"
import { Email } from "../../Email.js"

/** Where the caller's billing goes: the address of the service's invoices to them. */
export class BillingAddress extends Schema.Class<BillingAddress>("BillingAddress")({
  companyName: Schema.String,
  billingEmail: Email,
  addressLine1: Schema.String,
  addressLine2: Schema.NullOr(Schema.String),
  addressLine3: Schema.NullOr(Schema.String),
  /** Upper case with one space for a GB address (SW1A 1AA); as given, trimmed, elsewhere. */
  postcode: Schema.String,
  /** ISO 3166-1 alpha-2, upper case. */
  country: Schema.String
}) {}
