import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import { StringDecoder } from "node:string_decoder"
import { type SendOutcome, WebhookSender } from "@cisbook/core/webhooks/WebhookSender"
import { ATTEMPT_TIMEOUT, MAX_RESPONSE_BODY_BYTES } from "@cisbook/core/webhooks/WebhookMessage"
import { Duration, Effect, Layer, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
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

/** One POST to the checked address, with the URL's host name for the Host header and TLS. */
const post = (
  agents: { readonly http: http.Agent; readonly https: https.Agent },
  url: URL,
  to: Destination,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeout: Duration.Duration
) =>
  Effect.async<Answer, Error>((resume) => {
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
    const settle = (outcome: Effect.Effect<Answer, Error>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(outcome)
    }
    request.on("response", (response) =>
      readCapped(response, (text) => settle(Effect.succeed({ status: response.statusCode ?? 0, body: text })))
    )
    request.on("error", (error) => settle(Effect.fail(error)))
    request.end(body)
    // Interrupted (the dispatcher stops): the request is abandoned, its socket with it.
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      request.destroy()
    })
  })

const describeError = (error: Error, url: URL) => {
  const code = (error as NodeJS.ErrnoException).code
  if (code === "ECONNREFUSED") return `Connection refused by ${url.host}`
  if (code === "ECONNRESET") return `The connection to ${url.host} was reset`
  return error.message
}

/**
 * Sends webhooks per Standard Webhooks (signed with the `standardwebhooks` library), over
 * keep-alive connections. Each attempt resolves the host, checks every address, and connects
 * to the one checked; redirects are not followed; the receiver has 15 s to answer.
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
      return WebhookSender.of({
        send: (message) =>
          Effect.gen(function* () {
            const started = performance.now()
            const outcome = (fields: Omit<SendOutcome, "durationMs">): SendOutcome => ({
              ...fields,
              durationMs: Math.round(performance.now() - started)
            })
            const failed = (error: string) => outcome({ responseStatus: null, responseBody: null, error })
            const url = new URL(message.url)
            const destination = yield* Effect.either(destinationOf(url, options.allowPrivateTargets))
            if (destination._tag === "Left") return failed(destination.left.reason)
            // One entry per secret, as Standard Webhooks allows, so a rotated-out secret still verifies.
            const signature = message.secrets
              .map((secret) =>
                new Webhook(Redacted.value(secret)).sign(message.messageId, message.timestamp, message.body)
              )
              .join(" ")
            const headers = {
              "content-type": "application/json",
              "user-agent": "cisbook-webhooks/1",
              "webhook-id": message.messageId,
              "webhook-timestamp": String(Math.floor(message.timestamp.getTime() / 1000)),
              "webhook-signature": signature
            }
            const answer = yield* Effect.either(post(agents, url, destination.right, headers, message.body, timeout))
            if (answer._tag === "Left") return failed(describeError(answer.left, url))
            const { body, status } = answer.right
            return outcome({
              responseStatus: status,
              responseBody: body,
              error: status >= 300 && status < 400 ? "Redirects are not followed" : null
            })
          })
      })
    })
  )
