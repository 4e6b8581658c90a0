import { createHmac, randomUUID } from "node:crypto"
import { Clock } from "@cisbook/core/system/Clock"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Redacted } from "effect"
import type { ClaimedNotification, NotificationOutbox, NotificationOutcome } from "./SandboxStore.js"

/** Where the sandbox sends its notifications, and how it retries them. */
export interface NotificationOptions {
  /** `{PUBLIC_BASE_URL}/webhooks/gocardless`, as an integrator configures its endpoint at GoCardless. */
  readonly url: string
  /** The endpoint's secret: the body's HMAC-SHA256 with it is the `Webhook-Signature`. */
  readonly secret: Redacted.Redacted
  /** The wait after a first failed attempt, doubled after each further one. */
  readonly retryAfter: Duration.Duration
  /** After this many failed attempts the notification is given up, as GoCardless gives up. */
  readonly maxAttempts: number
}

/** How long GoCardless waits for an endpoint's answer. */
const ANSWER_WITHIN = Duration.seconds(10)

/** The hex HMAC-SHA256 of the body, keyed with the secret: GoCardless's `Webhook-Signature`. */
export const notificationSignature = (body: string, secret: string) =>
  createHmac("sha256", secret).update(body).digest("hex")

/**
 * The sender of the sandbox's notifications, in the shape of the server's leased workers: claim due
 * notifications, POST each as GoCardless does, record what came of them (a 2xx delivers it; anything
 * else, or no answer, is tried again later, at least once however a sender dies).
 */
export const makeNotificationSender = (outbox: NotificationOutbox, options: NotificationOptions) =>
  Effect.gen(function* () {
    const clock = yield* Clock
    const http = yield* HttpClient.HttpClient
    const secret = Redacted.value(options.secret) as string

    /** Due notifications, each held for `lease` by this sender. */
    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) =>
        outbox.claim(now, new Date(now.getTime() + Duration.toMillis(lease)), limit, randomUUID())
      )

    const send = (notification: ClaimedNotification) =>
      http
        .execute(
          HttpClientRequest.post(options.url).pipe(
            HttpClientRequest.setHeaders({
              "user-agent": "gocardless-webhook-service/1.1",
              "webhook-signature": notificationSignature(notification.body, secret)
            }),
            HttpClientRequest.bodyText(notification.body, "application/json")
          )
        )
        .pipe(
          Effect.flatMap((response) =>
            Effect.as(
              Effect.ignore(response.text),
              response.status >= 200 && response.status < 300 ? null : `answered ${response.status}`
            )
          ),
          Effect.scoped,
          Effect.timeoutFail({ duration: ANSWER_WITHIN, onTimeout: () => "no answer within 10 s" }),
          Effect.catchAll((error) => Effect.succeed(typeof error === "string" ? error : error.message))
        )

    const attempt = (notification: ClaimedNotification): Effect.Effect<NotificationOutcome> =>
      Effect.gen(function* () {
        const error = yield* send(notification)
        const now = yield* clock.now
        const attempts = notification.attempts + 1
        if (error === null) {
          return {
            id: notification.id,
            leaseToken: notification.leaseToken,
            nextAttemptAt: null,
            deliveredAt: now,
            error
          }
        }
        yield* Effect.logWarning(
          `The sandbox's notification ${notification.id} was not delivered (attempt ${attempts}): ${error}`
        )
        const wait = Duration.toMillis(options.retryAfter) * 2 ** (attempts - 1)
        return {
          id: notification.id,
          leaseToken: notification.leaseToken,
          nextAttemptAt: attempts >= options.maxAttempts ? null : new Date(now.getTime() + wait),
          deliveredAt: null,
          error
        }
      })

    return { claim, attempt, record: outbox.record } as const
  })
