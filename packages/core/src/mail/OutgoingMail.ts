import type { Email } from "../Email.js"
import type { MailId, TenantId } from "../Ids.js"
import type { EmailTemplateType } from "./EmailTemplateType.js"
import type { MailAttachment } from "./MailAttachment.js"
import type { MailStatus } from "./TenantMail.js"

/** A rendered mail, as the outbox keeps it until it is sent. */
export interface OutgoingMail {
  readonly tenantId: TenantId
  readonly id: MailId
  readonly type: EmailTemplateType
  readonly to: Email
  /** The display name of From (the address is the service's MAIL_FROM). */
  readonly fromName: string
  readonly replyTo: Email | null
  readonly subject: string
  readonly body: string
  readonly attachments: ReadonlyArray<MailAttachment>
  readonly createdAt: Date
}

/** A mail in the outbox as support staff see it. */
export interface MailSummary {
  readonly tenantId: TenantId
  readonly id: MailId
  readonly type: EmailTemplateType
  readonly to: Email
  readonly subject: string
  readonly status: MailStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly lastError: string | null
  readonly createdAt: Date
  readonly sentAt: Date | null
}
