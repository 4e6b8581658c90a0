import { DirectDebitUnavailable } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Clock, Data, Duration, Effect, Either, Option, Random } from "effect"
import { goCardlessBudgetPauses, goCardlessRetries } from "../metrics/ProviderCallMetrics.js"
import type { GoCardlessBudget } from "./GoCardlessBudget.js"
import { DEFAULT_TIMEOUT } from "./GoCardlessTimeout.js"
import { pauseOf } from "./HeaderPause.js"

/** GoCardless's answer to one call, read whole within the call's time limit. */
export interface GoCardlessAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

export interface RequestPolicy {
  /** The time limit of one try (GOCARDLESS_TIMEOUT_MS). */
  readonly timeout: Duration.Duration
  /** The most tries of one call within a client request. */
  readonly tries: number
  /** The pause before the second try; doubled before each next one, with jitter. */
  readonly backoff: Duration.Duration
  /**
   * The longest pause a call still waits: one GoCardless asks for (Retry-After, RateLimit-Reset),
   * or one until its rate limit resets (see `reserve`).
   */
  readonly longestWait: Duration.Duration
  /**
   * The requests of GoCardless's budget this caller leaves to others: with no more than this many
   * left (RateLimit-Remaining) a call waits for the budget's reset before it is sent.
   */
  readonly reserve: number
}

/** A user's request: waits little, and may spend the budget down to its last few calls. */
export const interactivePolicy = (timeout: Duration.Duration = DEFAULT_TIMEOUT): RequestPolicy => ({
  timeout,
  tries: 3,
  backoff: Duration.millis(500),
  longestWait: Duration.seconds(5),
  reserve: 5
})

/**
 * Bulk work (the billing run): waits out a whole rate-limit window (a minute, and leeway for the
 * clocks' difference), and leaves a tenth of GoCardless's 1,000 a minute to users' requests.
 */
export const bulkPolicy = (timeout: Duration.Duration = DEFAULT_TIMEOUT): RequestPolicy => ({
  ...interactivePolicy(timeout),
  longestWait: Duration.seconds(90),
  reserve: 100
})

/** What the client is told to wait when GoCardless stays unavailable and did not say for how long. */
const DEFAULT_RETRY_AFTER_SECONDS = 30

/**
 * The pause GoCardless asked for: `Retry-After`, else `RateLimit-Reset` when its rate limit is
 * spent (a 429). None when it asked for none.
 */
export const askedPause = (answer: GoCardlessAnswer, now: number): Option.Option<Duration.Duration> =>
  Option.orElse(pauseOf(answer.headers["retry-after"], now), () =>
    answer.status === 429 ? pauseOf(answer.headers["ratelimit-reset"], now) : Option.none()
  )

/** An answer worth another try of a call that is safe to repeat: GoCardless overloaded or failing. */
const transientStatus = (status: number) => status === 429 || status >= 500

/**
 * A call is safe to repeat when a second one cannot do anything twice: a GET, or a creation with
 * its Idempotency-Key. An action (`.../actions/retry`, `fulfil`, `cancel`) is not: GoCardless
 * deduplicates only creations, and its official clients never resend one.
 */
const safeToRepeat = (request: HttpClientRequest.HttpClientRequest) =>
  request.method === "GET" || request.headers["idempotency-key"] !== undefined

/**
 * A call not safe to repeat whose outcome is unknown: it may or may not have been done (no answer
 * in time, a dropped connection, a 5xx). Its caller reads the resource to learn which.
 */
export class OutcomeUnknown extends Data.TaggedError("OutcomeUnknown")<{
  /** What happened, as said of the call: "did not answer within 10s to POST /payments/PM1/actions/retry". */
  readonly message: string
  readonly retryAfterSeconds: number
}> {}

const retryAfterSecondsOf = (retryAfter: Option.Option<Duration.Duration>) =>
  Option.match(retryAfter, {
    onNone: () => DEFAULT_RETRY_AFTER_SECONDS,
    onSome: (pause) => Math.max(1, Math.ceil(Duration.toSeconds(pause)))
  })

/** GoCardless unavailable for a call: the defect a request answers 503 for, and a worker waits on. */
export const unavailable = (unknown: OutcomeUnknown) =>
  Effect.die(new DirectDebitUnavailable({ message: unknown.message, retryAfterSeconds: unknown.retryAfterSeconds }))

/**
 * Sends a request to GoCardless as its integration guides ask: each try within the time limit,
 * and a call that is safe to repeat tried again (at most `tries` in all) after a network error,
 * a time-out, a 5xx or a 429, after an exponential back-off with jitter or the pause GoCardless
 * asked for. A call that is not safe to repeat (an action) is tried again only after a 429, which
 * GoCardless answers before doing anything; after a network error, a time-out or a 5xx it fails
 * with OutcomeUnknown, never sent again. When GoCardless stays unavailable (or asks for a pause
 * longer than a request can wait) the call dies with DirectDebitUnavailable, carrying how long to
 * wait; any other answer is the caller's to read.
 *
 * Every try is paced by the client's `budget`, which every answer's RateLimit-* headers update:
 * with no more than `policy.reserve` requests left, a try waits for the budget's reset, or, when
 * that is longer than `policy.longestWait`, dies with DirectDebitUnavailable unsent (as a 429
 * would, without spending a request GoCardless would refuse).
 */
export const goCardlessRequest =
  (http: HttpClient.HttpClient, policy: RequestPolicy, budget: GoCardlessBudget) =>
  (request: HttpClientRequest.HttpClientRequest): Effect.Effect<GoCardlessAnswer, OutcomeUnknown> => {
    const what = `${request.method} ${new URL(request.url).pathname}`
    const paced = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const pause = yield* budget.pauseBefore(policy.reserve, now)
      if (Option.isNone(pause)) return
      if (Duration.greaterThan(pause.value, policy.longestWait)) {
        goCardlessBudgetPauses.inc({ outcome: "unavailable" })
        return yield* Effect.die(
          new DirectDebitUnavailable({
            message: `GoCardless's rate limit is spent until ${new Date(now + Duration.toMillis(pause.value)).toUTCString()}: ${what} was not sent`,
            retryAfterSeconds: retryAfterSecondsOf(pause)
          })
        )
      }
      goCardlessBudgetPauses.inc({ outcome: "waited" })
      yield* Effect.logInfo("GoCardless's rate limit is nearly spent; waiting for its reset").pipe(
        Effect.annotateLogs({ call: what, after: Duration.format(pause.value) })
      )
      yield* Effect.sleep(pause.value)
    })
    const sent = http.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text): GoCardlessAnswer => ({
          status: response.status,
          headers: response.headers,
          text
        }))
      ),
      Effect.scoped,
      Effect.tap((answer) => Effect.flatMap(Clock.currentTimeMillis, (now) => budget.heard(answer.headers, now))),
      Effect.mapError((error) => `could not be reached (${error.message})`),
      Effect.timeoutFail({
        duration: policy.timeout,
        onTimeout: () => `did not answer within ${Duration.format(policy.timeout)}`
      })
    )
    const failing = (why: string, retryAfter: Option.Option<Duration.Duration>) =>
      new OutcomeUnknown({
        message: `GoCardless ${why} to ${what}`,
        retryAfterSeconds: retryAfterSecondsOf(retryAfter)
      })
    const attempt = (tried: number): Effect.Effect<GoCardlessAnswer, OutcomeUnknown> =>
      Effect.gen(function* () {
        yield* paced
        const outcome = yield* Effect.either(sent)
        if (Either.isRight(outcome) && !transientStatus(outcome.right.status)) return outcome.right
        const now = yield* Clock.currentTimeMillis
        const asked = Either.isRight(outcome) ? askedPause(outcome.right, now) : Option.none()
        const why = Either.isRight(outcome) ? `answered ${outcome.right.status}` : outcome.left
        const refusedUndone = Either.isRight(outcome) && outcome.right.status === 429
        if (!safeToRepeat(request) && !refusedUndone) return yield* failing(why, asked)
        if (tried >= policy.tries) return yield* unavailable(failing(why, asked))
        if (Option.isSome(asked) && Duration.greaterThan(asked.value, policy.longestWait)) {
          return yield* unavailable(failing(why, asked))
        }
        const jitter = yield* Random.nextRange(0.5, 1)
        const pause = Option.getOrElse(asked, () => Duration.times(policy.backoff, 2 ** (tried - 1) * jitter))
        yield* Effect.logWarning("GoCardless did not answer as it should; trying the call again").pipe(
          Effect.annotateLogs({ call: what, reason: why, try: tried + 1, after: Duration.format(pause) })
        )
        goCardlessRetries.inc({ reason: Either.isRight(outcome) ? String(outcome.right.status) : "network" })
        yield* Effect.sleep(pause)
        return yield* attempt(tried + 1)
      })
    return attempt(1)
  }
