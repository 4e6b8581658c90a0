import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  BillingInvoiceDto,
  BillingMandateDto,
  BillingUsageDto,
  BillingProfileDto,
  CompleteMandateSetupRequest,
  CreateMandateSetupRequest,
  MandateSetupDto,
  UpdateBillingProfileRequest
} from "./BillingDtos.js"
import { ConflictProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { forUsers } from "./Access.js"

export class BillingApi extends HttpApiGroup.make("billing")
  .add(
    HttpApiEndpoint.get("getBillingProfile", "/me/billing/profile")
      .addSuccess(BillingProfileDto)
      .annotate(OpenApi.Summary, "The caller's billing address and mandate status")
      .annotate(
        OpenApi.Description,
        "Until the address is first set every address member is null; mandateStatus is NotStarted until a mandate setup is started."
      )
  )
  .add(
    HttpApiEndpoint.put("updateBillingProfile", "/me/billing/profile")
      .setPayload(UpdateBillingProfileRequest)
      .addSuccess(BillingProfileDto)
      .addError(ValidationProblem)
      .annotate(OpenApi.Summary, "Replace the caller's billing address")
      .annotate(
        OpenApi.Description,
        "Creates the profile on first use. companyName, billingEmail (a valid address), addressLine1, postcode and country are required; a GB postcode must be a valid UK postcode. Each invalid member is named in errors. The mandate is untouched."
      )
  )
  .add(
    HttpApiEndpoint.post("createMandateSetup", "/me/billing/mandate-setups")
      .setPayload(CreateMandateSetupRequest)
      .addSuccess(MandateSetupDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Start a direct debit mandate setup (a GoCardless billing request and its flow)")
      .annotate(
        OpenApi.Description,
        "Prefills the provider's customer from the billing profile, else from the user. Send the browser to redirectUrl; the provider sends it back to successRedirectUrl with redirect_flow_id appended, then complete with PUT /me/billing/mandate while the provider's page can be completed (its flow's expires_at: 7 days). 400 when neither the profile nor the user has an email address, or the provider refused (detail carries its message); 409 while the caller has an Active or InProgress mandate (a started setup counts until its flow expired)."
      )
  )
  .add(
    HttpApiEndpoint.put("completeMandateSetup", "/me/billing/mandate")
      .setPayload(CompleteMandateSetupRequest)
      .addSuccess(BillingMandateDto)
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .annotate(OpenApi.Summary, "Complete a mandate setup after the customer came back")
      .annotate(
        OpenApi.Description,
        "Reads the billing request from the provider (fulfilling one ready to be) and stores its mandate. 400 when the setup is not one the caller started, the token does not match, the setup expired or was cancelled, or the customer has not finished the provider's page. Completing a completed setup answers its mandate again, also when the provider's fulfilled event completed it first. Invoices waiting for a mandate are then put forward for collection."
      )
  )
  .add(
    HttpApiEndpoint.get("getMandate", "/me/billing/mandate")
      .addSuccess(BillingMandateDto)
      .addError(NotFoundProblem)
      .addError(RefusedProblem)
      .annotate(OpenApi.Summary, "The caller's latest mandate, refreshed from the provider")
      .annotate(OpenApi.Description, "404 until a mandate setup was started.")
  )
  .add(
    HttpApiEndpoint.del("cancelMandate", "/me/billing/mandate")
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFoundProblem)
      .addError(RefusedProblem)
      .annotate(OpenApi.Summary, "Cancel the caller's mandate with the provider")
      .annotate(
        OpenApi.Description,
        "Automatic payments stop; a new setup can be started at once. 404 when the caller has no mandate (only a flow never completed, or one already cancelled)."
      )
  )
  .add(
    HttpApiEndpoint.get("getBillingUsage", "/me/billing/usage")
      .addSuccess(Schema.Array(BillingUsageDto))
      .annotate(OpenApi.Summary, "What the next billing run will charge the caller for")
      .annotate(
        OpenApi.Description,
        "One entry per Accepted monthly return not invoiced yet, of every tenant where the caller is Owner (not Member), oldest tax month first, with the subcontractors on it. A billing run invoices them; invoiced returns are no longer listed."
      )
  )
  .add(
    HttpApiEndpoint.get("listBillingInvoices", "/me/billing/invoices")
      .addSuccess(Schema.Array(BillingInvoiceDto))
      .annotate(OpenApi.Summary, "The caller's invoices, latest first")
      .annotate(
        OpenApi.Description,
        "Latest issueDate first, then latest number; lines are omitted (GET one invoice for them). Before answering, every Pending or Failed invoice's payment is refreshed from the direct debit provider, with one listing of each mandate's payments, unless it was read from the provider, or moved by the provider's event, within the last minute; a provider that fails or is slow for a mandate does not fail the list: its invoices show their last known status."
      )
  )
  .add(
    HttpApiEndpoint.get("getBillingInvoice")`/me/billing/invoices/${HttpApiSchema.param("invoice", Schema.String)}`
      .addSuccess(BillingInvoiceDto)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One of the caller's invoices, with its lines")
      .annotate(OpenApi.Description, "404 when the invoice does not exist or is another user's.")
  )
  .add(
    HttpApiEndpoint.get(
      "getBillingInvoicePdf"
    )`/me/billing/invoices/${HttpApiSchema.param("invoice", Schema.String)}/pdf`
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The invoice as a PDF (a VAT invoice)")
      .annotate(
        OpenApi.Description,
        'application/pdf with content-disposition: attachment; filename="CB-000001.pdf". 404 when the invoice does not exist, is another user\'s, or has no PDF yet (hasPdf false).'
      )
  )
  .annotate(OpenApi.Title, "Billing")
  .annotate(
    OpenApi.Description,
    "Billing of the calling user (not of a tenant): their billing address, their GoCardless direct debit mandate, their usage not invoiced yet, and the service's invoices to them."
  )
  .pipe(forUsers) {}
