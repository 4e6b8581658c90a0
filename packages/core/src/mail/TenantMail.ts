import { Context, type Effect, Schema } from "effect"
import type { Email } from "../Email.js"
import type { MailId, TenantId } from "../Ids.js"
import type { EmailTemplateType } from "./EmailTemplateType.js"
import type { MailAttachment } from "./MailAttachment.js"
import type { TemplateValues } from "./TemplateValues.js"

export const MailStatus = Schema.Literal("Queued", "Sent", "Failed")
export type MailStatus = typeof MailStatus.Type

export interface TenantMailRequest<T extends EmailTemplateType> {
  readonly tenantId: TenantId
  readonly type: T
  readonly to: Email
  readonly values: TemplateValues[T]
  /** Reply-To when the tenant has no email of its own: the acting user's address, if any. */
  readonly actingUserEmail: Email | null
  readonly attachments?: ReadonlyArray<MailAttachment>
}

/** A mail as it was written to the outbox. */
export interface QueuedMail {
  readonly id: MailId
  readonly to: Email
  readonly subject: string
  readonly status: MailStatus
}

/**
 * The one way the service sends email on a tenant's behalf: renders the tenant's template of
 * the type with the values and the tenant's signature, and writes the message to the mail
 * outbox, from which a worker sends it. Call it inside the Transactor transaction of the change
 * that causes the mail, so that the mail exists exactly when the change does.
 */
export class TenantMail extends Context.Tag("core/TenantMail")<
  TenantMail,
  { readonly queue: <T extends EmailTemplateType>(request: TenantMailRequest<T>) => Effect.Effect<QueuedMail> }
>() {}
