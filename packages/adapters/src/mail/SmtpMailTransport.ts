import type { MailSendOutcome } from "@cisbook/core/mail/MailSchedule"
import { MailTransport } from "@cisbook/core/mail/MailTransport"
import { Effect, Layer } from "effect"
import nodemailer from "nodemailer"

export interface SmtpOptions {
  /** For example smtp://127.0.0.1:2525, or smtps://user:password@mail.example.com. */
  readonly url: string
  /** The From address; the display name is the tenant's. */
  readonly from: string
  /** Connections kept open to the server at once. */
  readonly connections: number
}

/** An error of nodemailer's, as far as the outcome depends on it. */
interface SmtpError {
  readonly message?: string
  readonly code?: string
  readonly responseCode?: number
}

/**
 * 4xx answers and lost connections are worth trying again; a 5xx answer, or an address or
 * message the client itself refuses, will fail the same way every time.
 */
const outcomeOf = (error: SmtpError): MailSendOutcome => {
  const message = error.message ?? String(error)
  const permanent =
    error.responseCode === undefined
      ? error.code === "EENVELOPE" || error.code === "EMESSAGE"
      : error.responseCode >= 500
  return permanent ? { _tag: "Rejected", error: message } : { _tag: "Deferred", error: message }
}

const messageIdDomain = (from: string) => from.split("@")[1] ?? "cisbook.localhost"

/** Sends over SMTP with nodemailer, through a pool of connections closed with the layer. */
export const smtpMailTransport = (options: SmtpOptions) =>
  Layer.scoped(
    MailTransport,
    Effect.gen(function* () {
      const transporter = yield* Effect.acquireRelease(
        Effect.sync(() =>
          nodemailer.createTransport({
            url: options.url,
            pool: true,
            maxConnections: options.connections,
            maxMessages: Infinity,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 60_000
          })
        ),
        (transporter) => Effect.sync(() => transporter.close())
      )
      const domain = messageIdDomain(options.from)
      return MailTransport.of({
        send: (mail) =>
          Effect.tryPromise({
            try: (signal) =>
              transporter.sendMail({
                from: { name: mail.fromName, address: options.from },
                to: mail.to,
                ...(mail.replyTo === null ? {} : { replyTo: mail.replyTo }),
                subject: mail.subject,
                text: mail.body,
                textEncoding: "quoted-printable",
                // The same Message-ID on every attempt, so that a receiver can tell a repeat.
                messageId: `<${mail.id}@${domain}>`,
                date: mail.createdAt,
                attachments: mail.attachments.map((a) => ({
                  filename: a.filename,
                  contentType: a.contentType,
                  content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength)
                })),
                signal
              }),
            catch: (error) => error as SmtpError
          }).pipe(
            Effect.as<MailSendOutcome>({ _tag: "Accepted" }),
            Effect.catchAll((error) => Effect.succeed(outcomeOf(error)))
          )
      })
    })
  )
