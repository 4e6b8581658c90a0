import { MailConfig } from "@cisbook/adapters/mail/MailConfig"
import { smtpMailTransport } from "@cisbook/adapters/mail/SmtpMailTransport"
import { measuredPort } from "@cisbook/adapters/metrics/ProviderCallMetrics"
import { MailTransport } from "@cisbook/core/ports/MailTransport"
import { MailDispatch } from "@cisbook/core/usecases/MailDispatch"
import { Duration, Effect, Layer } from "effect"
import { runLeasedWorker } from "./LeasedWorker.js"
import { MailSenderConfig, type MailSenderOptions } from "./MailSenderConfig.js"

/**
 * The mail sender: a leased worker over the mail outbox (see LeasedWorker). A mail in flight
 * when it stops is sent again by another sender; a mail the SMTP server accepted is recorded
 * Sent at once, and never sent again.
 */
export const mailSender = (options: MailSenderOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const dispatch = yield* MailDispatch
      yield* Effect.logInfo(
        `Mail sender started: up to ${options.concurrency} mails at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* runLeasedWorker(
        {
          name: "mail",
          claim: (limit) => dispatch.claim(limit, options.lease),
          attempt: dispatch.attempt,
          record: dispatch.record,
          failed: (done) => done.progress.status !== "Sent"
        },
        options
      )
    })
  )

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
