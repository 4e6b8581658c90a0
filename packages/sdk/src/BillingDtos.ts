import { InvoicePaymentStatus } from "@cisbook/core/billing/billinginvoices/InvoicePaymentStatus"
import { MandateStatus } from "@cisbook/core/billing/mandates/MandateStatus"
import { Pounds } from "@cisbook/core/Money"
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
    redirectFlowId: text("The provider's id of the setup: a GoCardless billing request (BRQ...)", "BRQ000123ABC"),
    redirectUrl: text(
      "The provider's hosted page (the billing request flow's authorisation_url): send the customer's browser here",
      "https://pay.gocardless.com/billing/static/flow?id=BRF000123ABC"
    ),
    sessionToken: text("Give it back with the redirect flow id to complete the setup", "sess_0f3c...")
  },
  { description: "A started mandate setup; it can be completed while its flow lasts (7 days at GoCardless)" }
) {}

export const CompleteMandateSetupRequest = requestBody("CompleteMandateSetupRequest", {
  redirectFlowId: text("From the setup, and from the redirect_flow_id query parameter", "BRQ000123ABC"),
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

const Day = (description: string, example: string) =>
  Schema.String.annotations({ description, format: "date", examples: [example] })

export class UsageSubcontractorDto extends Schema.Class<UsageSubcontractorDto>("UsageSubcontractorDto")({
  contactCode: text("The subcontractor's contact code in the tenant", "JOHNSMIT"),
  name: text("As on the return", "John Smith Groundworks")
}) {}

export class BillingUsageDto extends Schema.Class<BillingUsageDto>("BillingUsageDto")(
  {
    returnId: text("The accepted monthly return", "0193a1b2-7c4d-7e5f-8a9b-0c1d2e3f4a5b"),
    tenant: text("The tenant's code", "lovelace"),
    tenantName: text("The tenant's name", "Lovelace Builders Ltd"),
    periodEnd: Day("The return's tax month, by its last day", "2026-06-05"),
    acceptedAt: Schema.Date.annotations({ description: "When the tax authority accepted the return" }),
    subcontractors: Schema.Array(UsageSubcontractorDto).annotations({
      description: "The subcontractors on the return: the next invoice charges per subcontractor"
    })
  },
  {
    description:
      "An accepted monthly return not invoiced yet, of a tenant the caller owns: what the next billing run charges for"
  }
) {}

export class BillingInvoiceLineDto extends Schema.Class<BillingInvoiceLineDto>("BillingInvoiceLineDto")({
  description: text(
    "Names the tenant and the tax month",
    "CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)"
  ),
  tenant: text("The tenant's code", "lovelace"),
  returnId: text("The invoiced monthly return", "0193a1b2-7c4d-7e5f-8a9b-0c1d2e3f4a5b"),
  quantity: Schema.Int.annotations({ description: "Subcontractors on the return", examples: [3] }),
  unitPrice: Pounds.annotations({ description: "Per subcontractor, excluding VAT" }),
  amount: Pounds.annotations({ description: "quantity × unitPrice, excluding VAT" })
}) {}

export class BillingInvoiceDto extends Schema.Class<BillingInvoiceDto>("BillingInvoiceDto")(
  {
    id: text("The invoice's id", "0193a1b2-9e8f-7a6b-8c5d-4e3f2a1b0c9d"),
    number: text("CB-000001, CB-000002, ... across the service", "CB-000042"),
    issueDate: Day("The billing run's date (the tax point)", "2026-07-01"),
    periodStart: Day("The earliest tax month end of its returns", "2026-05-05"),
    periodEnd: Day("The latest tax month end of its returns", "2026-06-05"),
    currency: Schema.Literal("GBP"),
    subtotal: Pounds.annotations({ description: "Sum of the lines, excluding VAT" }),
    vat: Pounds.annotations({ description: "20 % of the subtotal, rounded half up to the penny" }),
    total: Pounds.annotations({ description: "subtotal + vat: what is collected" }),
    paymentStatus: InvoicePaymentStatus.annotations({
      description:
        "WaitingForMandate until the caller has a direct debit mandate; then as the provider's payment stands (Pending and Failed are refreshed on listing)"
    }),
    paymentReference: stored("The provider's payment id", "PM000123ABC"),
    hasPdf: Schema.Boolean.annotations({ description: "Whether GET .../pdf answers the invoice's PDF" }),
    lines: Schema.optionalWith(Schema.Array(BillingInvoiceLineDto), { exact: true }).annotations({
      description: "On GET /me/billing/invoices/{invoice} only; omitted in the list"
    })
  },
  { description: "An invoice of the service to the caller, for the accepted monthly returns of the tenants they own" }
) {}
