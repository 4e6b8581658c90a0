import type { Email } from "../Email.js"
import type { MailId, TenantId, UserId } from "../Ids.js"
import type { MailAttachment } from "./MailAttachment.js"
import type { MailType } from "./MailType.js"
import type { MailStatus } from "./TenantMail.js"

/** A rendered mail, as the outbox keeps it until it is sent. */
export interface OutgoingMail {
  /** The tenant on whose behalf it is sent; null for the service's own mail to a user. */
  readonly tenantId: TenantId | null
  /** The user the service's own mail is to (with no tenant). */
  readonly userId?: UserId
  readonly id: MailId
  readonly type: MailType
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
  readonly tenantId: TenantId | null
  readonly id: MailId
  readonly type: MailType
  readonly to: Email
  readonly subject: string
  readonly status: MailStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly lastError: string | null
  readonly createdAt: Date
  readonly sentAt: Date | null
}
