import { Schema } from "effect"

/** The kinds of email a tenant sends, each with a template the tenant may customise. */
export const EmailTemplateType = Schema.Literal(
  "ConnectionInvitation",
  "CisStatement",
  "SalesInvoice",
  "PaymentReminder"
)
export type EmailTemplateType = typeof EmailTemplateType.Type
