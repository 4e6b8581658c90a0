import { Config, Duration } from "effect"
import { wholeNumberBetween as between } from "./WholeNumberConfig.js"

export interface MailSenderOptions {
  readonly pollInterval: Duration.Duration
  /** How many mails one process hands to the SMTP server at once. */
  readonly concurrency: number
  /** How long a claimed mail is held; unrecorded by then, it is due again. */
  readonly lease: Duration.Duration
}

/** MAIL_SENDER (on unless false) and its settings. */
export const MailSenderConfig = Config.all({
  enabled: Config.withDefault(Config.boolean("MAIL_SENDER"), true),
  pollInterval: Config.map(between("MAIL_POLL_INTERVAL_MS", 1000, 10, 60_000), Duration.millis),
  concurrency: between("MAIL_CONCURRENCY", 50, 1, 1000),
  // Longer than an attempt can take (connecting, greeting and the data, each bounded), so that
  // a live sender never loses its lease.
  lease: Config.map(between("MAIL_LEASE_SECONDS", 300, 120, 3600), Duration.seconds)
})
