import type { AddressInfo } from "node:net"
import { Effect, Ref, Schedule } from "effect"
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

/** A message the server accepted, parsed as a mail client would read it. */
export interface ReceivedMail {
  readonly envelopeFrom: string
  readonly envelopeTo: ReadonlyArray<string>
  /** The message as it came over the wire. */
  readonly raw: string
  readonly parsed: ParsedMail
}

/** How the server answers a message's data: accept it, refuse it with a code, or never answer. */
export type SmtpAnswer = "accept" | { readonly code: number; readonly message: string } | "hold"

const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code })

/**
 * A real SMTP server on loopback (smtp-server), as a mail provider would run one: plain SMTP,
 * no authentication. It parses each message it accepts with mailparser and keeps it. It can be
 * stopped and started again on the same port, and told how to answer.
 */
export const startSmtpReceiver = Effect.gen(function* () {
  const received = yield* Ref.make<ReadonlyArray<ReceivedMail>>([])
  let attempts = 0
  let answer: (index: number) => SmtpAnswer = () => "accept"

  // A closed SMTPServer answers 421 to everyone: each start makes a new one.
  const makeServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      size: 50 * 1024 * 1024,
      // A stop drops open connections at once, as a server that goes down does.
      closeTimeout: 50,
      onData(stream, session, callback) {
        const chunks: Array<Buffer> = []
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        stream.on("end", () => {
          const reply = answer(attempts++)
          if (reply === "hold") return
          if (reply !== "accept") return callback(refusal(reply.code, reply.message))
          const raw = Buffer.concat(chunks)
          simpleParser(raw).then(
            (parsed) => {
              const mail: ReceivedMail = {
                envelopeFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
                envelopeTo: session.envelope.rcptTo.map((to) => to.address),
                raw: raw.toString("utf8"),
                parsed
              }
              Effect.runSync(Ref.update(received, (all) => [...all, mail]))
              callback()
            },
            (error: Error) => callback(error)
          )
        })
      }
    })

  let port = 0
  let server = makeServer()
  const listen = Effect.async<void>((resume) => {
    server = makeServer()
    server.listen(port, "127.0.0.1", () => {
      port = (server.server.address() as AddressInfo).port
      resume(Effect.void)
    })
  })
  const close = Effect.async<void>((resume) => {
    server.close(() => resume(Effect.void))
  })
  yield* Effect.acquireRelease(listen, () => close)

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received: Ref.get(received),
    /** How the server answers each message's data, counted from the first one it was sent. */
    answerWith: (f: (index: number) => SmtpAnswer) => Effect.sync(() => void (answer = f)),
    /** Stops listening and drops every connection, as a mail server that goes down. */
    stop: close,
    /** Listens again on the same port. */
    start: listen,
    /** The messages once there are at least `count`; fails after `seconds`. */
    waitFor: (count: number, seconds = 20) =>
      Ref.get(received).pipe(
        Effect.filterOrFail(
          (all) => all.length >= count,
          () => new Error(`The SMTP server got fewer than ${count} messages`)
        ),
        Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo(`${seconds} seconds`))),
        Effect.orDie
      )
  } as const
})

export type SmtpReceiver = Effect.Effect.Success<typeof startSmtpReceiver>
