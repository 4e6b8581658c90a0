import { Schema } from "effect"
import { EmailTemplateType } from "./EmailTemplateType.js"

/**
 * What a mail in the outbox is: one of the tenants' templated kinds, or the service's own notice
 * to a user about their billing (not a tenant's, so no template of a tenant's applies).
 */
export const MailType = Schema.Union(EmailTemplateType, Schema.Literal("BillingNotice"))
export type MailType = typeof MailType.Type
