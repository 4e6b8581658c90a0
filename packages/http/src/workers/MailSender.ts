import { MailConfig } from "@cisbook/adapters/mail/MailConfig"
import { smtpMailTransport } from "@cisbook/adapters/mail/SmtpMailTransport"
import { measuredPort } from "@cisbook/adapters/metrics/ProviderCallMetrics"
import { MailTransport } from "@cisbook/core/mail/MailTransport"
import { MailDispatch } from "@cisbook/core/mail/MailDispatch"
import { Effect, Layer } from "effect"
import { leasedWorker } from "./LeasedWorker.js"
import { leasedWorkerConfig } from "./LeasedWorkerConfig.js"

/** MAIL_SENDER (on unless false) and its settings. */
export const MailSenderConfig = leasedWorkerConfig("MAIL", {
  switch: "MAIL_SENDER",
  concurrency: [50, 1, 1000],
  // Connecting, the greeting and the data are each bounded.
  leaseSeconds: [300, 120, 3600]
})

/**
 * The mail sender: a leased worker over the mail outbox (see LeasedWorker). A mail in flight
 * when it stops is sent again by another sender; a mail the SMTP server accepted is recorded
 * Sent at once, and never sent again.
 */
export const mailSender = leasedWorker(MailDispatch, {
  worker: "Mail sender",
  items: "mails",
  work: "mail",
  failed: (done) => done.progress.status !== "Sent"
})

const mailStaysQueued = Layer.effectDiscard(
  Effect.logWarning("SMTP_URL is not set: mail stays queued in the outbox and is not sent (see pnpm cli mail list)")
)

/** The sender over SMTP as SMTP_URL, MAIL_FROM and MAIL_SENDER say; without SMTP_URL, a notice. */
export const MailSenderLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const { enabled, ...options } = yield* MailSenderConfig
    const { connections, from, smtpUrl } = yield* MailConfig
    if (!enabled) return Layer.empty
    if (smtpUrl === null) return mailStaysQueued
    return mailSender(options).pipe(
      Layer.provide(MailDispatch.Default),
      Layer.provide(smtpMailTransport({ url: smtpUrl, from, connections }).pipe(measuredPort(MailTransport, "smtp")))
    )
  })
)
