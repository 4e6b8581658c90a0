import { EmailTemplateType } from "@cisbook/core/mail/EmailTemplateType"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  EmailSettingsDto,
  EmailTemplateDto,
  UpdateEmailSettingsRequest,
  UpdateEmailTemplateRequest
} from "./EmailSettingsDtos.js"
import { NotFoundProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembersOrNotFound } from "./Access.js"

// Checked by the service after the tenant, so that a caller who is not a member gets 404 whatever the type.
const typeParam = HttpApiSchema.param(
  "type",
  Schema.String.annotations({
    description: `An EmailTemplateType: ${EmailTemplateType.literals.join(", ")}; any other is 400`,
    jsonSchema: { enum: EmailTemplateType.literals },
    examples: ["SalesInvoice"]
  })
)

const notMember = "A caller who is not a member of the tenant gets 404."

export class EmailSettingsApi extends HttpApiGroup.make("emailSettings")
  .add(
    HttpApiEndpoint.get("getEmailSettings")`/tenants/${tenantParam}/settings/email`
      .addSuccess(EmailSettingsDto)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's email settings")
      .annotate(OpenApi.Description, `Before the first change: no signature, no automatic statements. ${notMember}`)
  )
  .add(
    HttpApiEndpoint.put("updateEmailSettings")`/tenants/${tenantParam}/settings/email`
      .setPayload(UpdateEmailSettingsRequest)
      .addSuccess(EmailSettingsDto)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Replace the tenant's email settings")
      .annotate(
        OpenApi.Description,
        `signature (at most 2,000 characters, or null) and autoEmailStatements are both required. ${notMember}`
      )
  )
  .add(
    HttpApiEndpoint.get("listEmailTemplates")`/tenants/${tenantParam}/settings/email/templates`
      .addSuccess(Schema.Array(EmailTemplateDto))
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "All four email templates of the tenant")
      .annotate(
        OpenApi.Description,
        `In the order ConnectionInvitation, CisStatement, SalesInvoice, PaymentReminder. ${notMember}`
      )
  )
  .add(
    HttpApiEndpoint.get("getEmailTemplate")`/tenants/${tenantParam}/settings/email/templates/${typeParam}`
      .addSuccess(EmailTemplateDto)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One email template of the tenant, with its defaults and placeholders")
      .annotate(OpenApi.Description, `An unknown type is 400. ${notMember}`)
  )
  .add(
    HttpApiEndpoint.put("updateEmailTemplate")`/tenants/${tenantParam}/settings/email/templates/${typeParam}`
      .setPayload(UpdateEmailTemplateRequest)
      .addSuccess(EmailTemplateDto)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Customise an email template")
      .annotate(
        OpenApi.Description,
        `Placeholder values are inserted as text when a mail is sent: amounts as £1,234.56, dates as 5 June 2026. A subject and body equal to the defaults leave the template un-customised. ${notMember}`
      )
  )
  .add(
    HttpApiEndpoint.del("resetEmailTemplate")`/tenants/${tenantParam}/settings/email/templates/${typeParam}`
      .addSuccess(EmailTemplateDto)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Restore an email template's defaults")
      .annotate(OpenApi.Description, `Answers with the template as it now is. ${notMember}`)
  )
  .annotate(OpenApi.Title, "Email settings")
  .annotate(
    OpenApi.Description,
    "A tenant's email: the signature under every mail, automatic statements, and the four templates (connection invitations, CIS statements, sales invoices, payment reminders) with their placeholders. Mail is written to an outbox with the change that causes it and sent over SMTP by the server."
  )
  .pipe(forTenantMembersOrNotFound) {}
