import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import { StringDecoder } from "node:string_decoder"
import { createHmac } from "node:crypto"
import { type OutgoingWebhook, type SendOutcome, WebhookSender } from "@cisbook/core/webhooks/WebhookSender"
import { ATTEMPT_TIMEOUT, MAX_RESPONSE_BODY_BYTES } from "@cisbook/core/webhooks/WebhookMessage"
import { Duration, Effect, Either, Layer, Redacted } from "effect"
import { type Destination, destinationOf } from "./Destinations.js"

export interface SenderOptions {
  readonly allowPrivateTargets: boolean
  /** How long a receiver has to answer; 15 s unless a test says otherwise. */
  readonly timeout?: Duration.Duration
}

interface Answer {
  readonly status: number
  readonly body: string
}

const seconds = (duration: Duration.Duration) => Duration.toSeconds(duration)

/** The first 4 KiB of a body, cut on a character boundary. */
const readCapped = (response: http.IncomingMessage, done: (body: string) => void) => {
  const decoder = new StringDecoder("utf8")
  let body = ""
  let bytes = 0
  response.on("data", (chunk: Buffer) => {
    const room = MAX_RESPONSE_BODY_BYTES - bytes
    bytes += chunk.length
    body += decoder.write(room >= chunk.length ? chunk : chunk.subarray(0, room))
    // Enough is kept; the rest is not worth waiting for.
    if (bytes >= MAX_RESPONSE_BODY_BYTES) {
      response.destroy()
      done(body)
    }
  })
  response.on("end", () => done(body + decoder.end()))
  response.on("error", () => done(body))
}

/**
 * One POST to the checked address, with the URL's host name for the Host header and TLS; `done`
 * is called once, with the answer or the error. Returns how to abandon it.
 */
const post = (
  agents: { readonly http: http.Agent; readonly https: https.Agent },
  url: URL,
  to: Destination,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeout: Duration.Duration,
  done: (answer: Either.Either<Answer, Error>) => void
): (() => void) => {
  const secure = url.protocol === "https:"
  const request = (secure ? https : http).request({
    method: "POST",
    host: to.address,
    family: to.family,
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, host: url.host, "content-length": Buffer.byteLength(body) },
    agent: secure ? agents.https : agents.http,
    ...(secure && isIP(url.hostname) === 0 ? { servername: url.hostname } : {})
  })
  const timer = setTimeout(
    () => request.destroy(new Error(`No answer within ${seconds(timeout)} s`)),
    Duration.toMillis(timeout)
  )
  let settled = false
  const settle = (answer: Either.Either<Answer, Error>) => {
    if (settled) return
    settled = true
    clearTimeout(timer)
    done(answer)
  }
  request.on("response", (response) =>
    readCapped(response, (text) => settle(Either.right({ status: response.statusCode ?? 0, body: text })))
  )
  request.on("error", (error) => settle(Either.left(error)))
  request.end(body)
  return () => {
    settled = true
    clearTimeout(timer)
    request.destroy()
  }
}

const describeError = (error: Error, url: URL) => {
  const code = (error as NodeJS.ErrnoException).code
  if (code === "ECONNREFUSED") return `Connection refused by ${url.host}`
  if (code === "ECONNRESET") return `The connection to ${url.host} was reset`
  return error.message
}

const SECRET_PREFIX = "whsec_"

/** A `whsec_` secret's key: the bytes its base64 stands for (as the `standardwebhooks` library reads it). */
const secretKey = (secret: string) =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64")

/**
 * The `webhook-signature` header: one `v1,` entry per secret (so a rotated-out secret still
 * verifies), HMAC-SHA256 of `id.timestamp.body` in base64, per Standard Webhooks. Signed with
 * `node:crypto`, equal to the `standardwebhooks` library's `sign` (tested), at a fraction of its cost.
 */
export const webhookSignature = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  messageId: string,
  timestamp: Date,
  body: string
) => {
  const signed = `${messageId}.${Math.floor(timestamp.getTime() / 1000)}.${body}`
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac("sha256", secretKey(Redacted.value(secret)))
          .update(signed)
          .digest("base64")}`
    )
    .join(" ")
}

/** Where each distinct URL of the messages leads (each host resolved once), or why it may not be sent to. */
const destinationsOf = (messages: ReadonlyArray<OutgoingWebhook>, allowPrivateTargets: boolean) => {
  const urls = [...new Set(messages.map((message) => message.url))]
  return Effect.map(
    Effect.forEach(urls, (url) => Effect.either(destinationOf(new URL(url), allowPrivateTargets)), {
      concurrency: urls.length > 1 ? "unbounded" : 1
    }),
    (found) => new Map(urls.map((url, i) => [url, found[i]!]))
  )
}

/**
 * Sends webhooks per Standard Webhooks, over keep-alive connections. Each host is resolved,
 * every address checked, and the one checked connected to; redirects are not followed; the
 * receiver has 15 s to answer. A batch (`sendAll`) is one effect: its requests go out together
 * on plain callbacks, with no fiber of their own, and interrupting it abandons them all.
 */
export const httpWebhookSender = (options: SenderOptions) =>
  Layer.scoped(
    WebhookSender,
    Effect.gen(function* () {
      const timeout = options.timeout ?? ATTEMPT_TIMEOUT
      const agents = yield* Effect.acquireRelease(
        Effect.sync(() => ({ http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) })),
        (a) => Effect.sync(() => (a.http.destroy(), a.https.destroy()))
      )

      const sendAll = (messages: ReadonlyArray<OutgoingWebhook>): Effect.Effect<ReadonlyArray<SendOutcome>> =>
        messages.length === 0
          ? Effect.succeed([])
          : Effect.suspend(() => {
              const started = performance.now()
              return Effect.flatMap(destinationsOf(messages, options.allowPrivateTargets), (destinations) =>
                Effect.async<ReadonlyArray<SendOutcome>>((resume) => {
                  const outcomes = new Array<SendOutcome>(messages.length)
                  const abandon: Array<() => void> = []
                  let waiting = messages.length
                  const settle = (i: number, fields: Omit<SendOutcome, "durationMs">) => {
                    outcomes[i] = { ...fields, durationMs: Math.round(performance.now() - started) }
                    if (--waiting === 0) resume(Effect.succeed(outcomes))
                  }
                  const failed = (i: number, error: string) =>
                    settle(i, { responseStatus: null, responseBody: null, error })
                  messages.forEach((message, i) => {
                    const destination = destinations.get(message.url)!
                    if (destination._tag === "Left") return failed(i, destination.left.reason)
                    const url = new URL(message.url)
                    const headers = {
                      "content-type": "application/json",
                      "user-agent": "cisbook-webhooks/1",
                      "webhook-id": message.messageId,
                      "webhook-timestamp": String(Math.floor(message.timestamp.getTime() / 1000)),
                      "webhook-signature": webhookSignature(
                        message.secrets,
                        message.messageId,
                        message.timestamp,
                        message.body
                      )
                    }
                    abandon.push(
                      post(agents, url, destination.right, headers, message.body, timeout, (answer) =>
                        Either.isLeft(answer)
                          ? failed(i, describeError(answer.left, url))
                          : settle(i, {
                              responseStatus: answer.right.status,
                              responseBody: answer.right.body,
                              error:
                                answer.right.status >= 300 && answer.right.status < 400
                                  ? "Redirects are not followed"
                                  : null
                            })
                      )
                    )
                  })
                  // Interrupted (the dispatcher stops): the requests are abandoned, their sockets with them.
                  return Effect.sync(() => abandon.forEach((stop) => stop()))
                })
              )
            })

      return WebhookSender.of({
        send: (message) => Effect.map(sendAll([message]), (outcomes) => outcomes[0]!),
        sendAll
      })
    })
  )
