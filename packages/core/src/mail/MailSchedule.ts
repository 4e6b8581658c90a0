import { Duration } from "effect"
import type { MailStatus } from "./TenantMail.js"

/** The most times the service tries to hand a mail to the SMTP server. */
export const MAX_MAIL_ATTEMPTS = 10

/** The wait after each failed attempt but the last: about 22 hours from first to last attempt. */
export const MAIL_RETRY_DELAYS: ReadonlyArray<Duration.Duration> = [
  Duration.minutes(1),
  Duration.minutes(5),
  Duration.minutes(15),
  Duration.minutes(30),
  Duration.hours(1),
  Duration.hours(2),
  Duration.hours(4),
  Duration.hours(6),
  Duration.hours(8)
]

/** How an attempt to hand a mail to the SMTP server ended. */
export type MailSendOutcome =
  | { readonly _tag: "Accepted" }
  /** Worth trying again: the server could not be reached, or answered 4xx. */
  | { readonly _tag: "Deferred"; readonly error: string }
  /** The server refused the mail for good (5xx). */
  | { readonly _tag: "Rejected"; readonly error: string }

/** Where a mail stands after an attempt. */
export interface MailProgress {
  readonly status: MailStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly lastError: string | null
  readonly sentAt: Date | null
}

/** The state after attempt number `attempts` (counting it) ended at `at` with `outcome`. */
export const afterMailAttempt = (attempts: number, at: Date, outcome: MailSendOutcome): MailProgress => {
  if (outcome._tag === "Accepted") {
    return { status: "Sent", attempts, nextAttemptAt: null, lastError: null, sentAt: at }
  }
  const delay = outcome._tag === "Deferred" ? MAIL_RETRY_DELAYS[attempts - 1] : undefined
  return delay === undefined || attempts >= MAX_MAIL_ATTEMPTS
    ? { status: "Failed", attempts, nextAttemptAt: null, lastError: outcome.error, sentAt: null }
    : {
        status: "Queued",
        attempts,
        nextAttemptAt: new Date(at.getTime() + Duration.toMillis(delay)),
        lastError: outcome.error,
        sentAt: null
      }
}
