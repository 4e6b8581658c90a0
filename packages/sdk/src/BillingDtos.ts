import { MandateStatus } from "@cisbook/core/billing/MandateStatus"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

const text = (description: string, example: string) => Schema.String.annotations({ description, examples: [example] })
const stored = (description: string, example: string) =>
  Schema.NullOr(Schema.String).annotations({ description, examples: [example] })

export const UpdateBillingProfileRequest = requestBody("UpdateBillingProfileRequest", {
  companyName: text("1–200 characters", "Lovelace Builders Ltd"),
  billingEmail: text("Where the service's invoices go", "accounts@lovelace.example"),
  addressLine1: text("1–200 characters", "1 Analytical Row"),
  addressLine2: optional(text("Optional; blank means none", "Marylebone")),
  addressLine3: optional(text("Optional; blank means none", "London")),
  postcode: text("A GB postcode must be a valid UK postcode; stored upper case with one space", "nw1 6xe"),
  country: text("ISO 3166-1 alpha-2", "GB")
}).annotations({
  description: "The billing address, replaced whole: an omitted optional line is cleared. The mandate is untouched."
})

export class BillingProfileDto extends Schema.Class<BillingProfileDto>("BillingProfileDto")(
  {
    companyName: stored("null until the address is first set", "Lovelace Builders Ltd"),
    billingEmail: stored("null until the address is first set", "accounts@lovelace.example"),
    addressLine1: stored("null until the address is first set", "1 Analytical Row"),
    addressLine2: stored("null when not given", "Marylebone"),
    addressLine3: stored("null when not given", "London"),
    postcode: stored("A GB postcode upper case with one space", "NW1 6XE"),
    country: stored("ISO 3166-1 alpha-2", "GB"),
    mandateStatus: MandateStatus.annotations({
      description: "The status of the caller's latest mandate or setup; NotStarted when none was ever started"
    })
  },
  { description: "The calling user's billing address and where their direct debit mandate stands" }
) {}

export const CreateMandateSetupRequest = requestBody("CreateMandateSetupRequest", {
  successRedirectUrl: text(
    "Absolute http or https URL the provider sends the browser back to, with redirect_flow_id appended",
    "https://app.cisbook.example/billing/mandate/complete"
  )
})

export class MandateSetupDto extends Schema.Class<MandateSetupDto>("MandateSetupDto")(
  {
    redirectFlowId: text("The provider's redirect flow id", "RE000123ABC"),
    redirectUrl: text(
      "The provider's hosted page: send the customer's browser here",
      "https://pay.gocardless.com/flow/RE000123ABC"
    ),
    sessionToken: text("Give it back with the redirect flow id to complete the setup", "sess_0f3c...")
  },
  { description: "A started mandate setup; it can be completed for 30 minutes" }
) {}

export const CompleteMandateSetupRequest = requestBody("CompleteMandateSetupRequest", {
  redirectFlowId: text("From the setup, and from the redirect_flow_id query parameter", "RE000123ABC"),
  sessionToken: text("From the setup", "sess_0f3c...")
})

export class BillingMandateDto extends Schema.Class<BillingMandateDto>("BillingMandateDto")(
  {
    status: MandateStatus,
    reference: stored("The provider's mandate id; null while only a flow was started", "MD000123ABC"),
    accountHolderName: stored("As the provider holds it, once the mandate exists", "Ada Lovelace"),
    bankName: stored("As the provider holds it", "BARCLAYS BANK PLC"),
    accountNumberEnding: stored("The last two digits", "11"),
    nextPossibleChargeDate: stored("YYYY-MM-DD", "2026-11-27"),
    createdAt: Schema.Date
  },
  { description: "The caller's direct debit mandate, refreshed from the provider" }
) {}
