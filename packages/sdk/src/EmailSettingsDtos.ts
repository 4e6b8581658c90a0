import { EmailBody, EmailSignature, EmailSubject } from "@cisbook/core/mail/EmailSettingsInput"
import { EmailTemplateType } from "@cisbook/core/mail/EmailTemplateType"
import { Schema } from "effect"
import { requestBody } from "./RequestBody.js"

export const UpdateEmailSettingsRequest = requestBody("UpdateEmailSettingsRequest", {
  signature: Schema.NullOr(EmailSignature),
  autoEmailStatements: Schema.Boolean
}).annotations({
  description:
    "The tenant's email settings, replaced whole: both members are required. A blank signature is stored as null.",
  examples: [
    { signature: "Ada Lovelace\nLovelace Builders Ltd\n020 7946 0000", autoEmailStatements: true },
    { signature: null, autoEmailStatements: false }
  ]
})

export class EmailSettingsDto extends Schema.Class<EmailSettingsDto>("EmailSettingsDto")(
  {
    signature: Schema.NullOr(Schema.String).annotations({
      description: "Appended to every email of the tenant after a line `-- `; null for none",
      examples: ["Ada Lovelace\nLovelace Builders Ltd\n020 7946 0000"]
    }),
    autoEmailStatements: Schema.Boolean.annotations({
      description: "Whether CIS statements are emailed to subcontractors automatically when a return is accepted"
    })
  },
  { description: "The tenant's email settings; before any change, no signature and no automatic statements" }
) {}

export const UpdateEmailTemplateRequest = requestBody("UpdateEmailTemplateRequest", {
  subject: EmailSubject,
  body: EmailBody
}).annotations({
  description:
    "A template's subject (1–200 characters, one line) and body (1–10,000 characters). Placeholders are written {{name}} or {{ name }}; a name the type does not list is 400 naming subject or body. The defaults themselves leave the template un-customised.",
  examples: [
    {
      subject: "Invoice {{invoiceNumber}} from {{tenantName}}",
      body: "Hello {{contactName}},\n\nInvoice {{invoiceNumber}} for {{total}} is due on {{dueDate}}.\n\nThank you."
    }
  ]
})

export class EmailTemplateDto extends Schema.Class<EmailTemplateDto>("EmailTemplateDto")(
  {
    type: EmailTemplateType,
    subject: Schema.String.annotations({
      description: "The subject in use",
      examples: ["Invoice {{invoiceNumber}} from {{tenantName}}"]
    }),
    body: Schema.String.annotations({ description: "The body in use (text)" }),
    defaultSubject: Schema.String,
    defaultBody: Schema.String,
    isCustomised: Schema.Boolean.annotations({
      description: "false while the subject and body are the defaults"
    }),
    placeholders: Schema.Array(Schema.String).annotations({
      description: "The names this type's subject and body can use, each written {{name}}",
      examples: [
        ["tenantName", "contactName", "invoiceNumber", "issueDate", "dueDate", "total", "amountDue", "reference"]
      ]
    })
  },
  { description: "One of the tenant's email templates: what is in use, and the defaults" }
) {}
