import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Ref, Schedule } from "effect"
import { Webhook } from "standardwebhooks"

/** A request as the receiver got it, and whether its signature held. */
export interface ReceivedWebhook {
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly receivedAt: number
  /** Checked with the standardwebhooks library against the trusted secret; null when none is trusted. */
  readonly verified: boolean | null
}

/** How the receiver answers a request: a status and body, or no answer at all. */
export type ReceiverAnswer =
  | {
      readonly status: number
      readonly body?: string
      readonly location?: string
      /** Answers only after this many milliseconds: a slow receiver. */
      readonly delayMs?: number
    }
  | "hold"

const headersOf = (request: http.IncomingMessage) =>
  Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]))

/**
 * A real HTTP server on loopback that receives webhooks as a customer's would: it verifies
 * each signature with the standardwebhooks library (answering 400 when it fails), records the
 * request, and answers as the test says (204 by default).
 */
export const startWebhookReceiver = Effect.gen(function* () {
  const received = yield* Ref.make<ReadonlyArray<ReceivedWebhook>>([])
  let answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer = () => ({ status: 204 })
  let trusted: Webhook | null = null
  const server = yield* Effect.acquireRelease(
    Effect.async<http.Server>((resume) => {
      const server = http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8")
          const headers = headersOf(request)
          let verified: boolean | null = null
          if (trusted !== null) {
            try {
              trusted.verify(body, headers)
              verified = true
            } catch {
              verified = false
            }
          }
          const got: ReceivedWebhook = { path: request.url ?? "", headers, body, receivedAt: Date.now(), verified }
          const index = Effect.runSync(Ref.getAndUpdate(received, (all) => [...all, got])).length
          const reply = verified === false ? { status: 400, body: "bad signature" } : answer(got, index)
          if (reply === "hold") return
          const send = () => {
            response.writeHead(reply.status, reply.location ? { location: reply.location } : {})
            response.end(reply.body ?? "")
          }
          if (reply.delayMs === undefined) send()
          else setTimeout(send, reply.delayMs)
        })
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received: Ref.get(received),
    /** Verify every request from now on with this secret (whsec_...). */
    trust: (secret: string) => Effect.sync(() => void (trusted = new Webhook(secret))),
    answerWith: (f: (request: ReceivedWebhook, index: number) => ReceiverAnswer) =>
      Effect.sync(() => void (answer = f)),
    /** The requests once there are at least `count`; fails after `seconds`. */
    waitFor: (count: number, seconds = 20) =>
      Ref.get(received).pipe(
        Effect.filterOrFail(
          (all) => all.length >= count,
          () => new Error(`The receiver got fewer than ${count} requests`)
        ),
        Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo(`${seconds} seconds`))),
        Effect.orDie
      )
  } as const
})

export type WebhookReceiver = Effect.Effect.Success<typeof startWebhookReceiver>
