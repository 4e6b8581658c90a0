import { type GoCardlessCaller, goCardlessDirectDebitOver } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { DirectDebitFault, DirectDebitUnavailable } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Ref, TestClock } from "effect"
import { exampleOf, published } from "./PublishedGoCardless.js"
import { internalError as internalErrorReply, rateLimited as rateLimitedReply } from "./RecordedGoCardless.js"

/** GoCardless's published answers (fixtures/gocardless), as they are. */
const json = (body: unknown) => JSON.stringify(body)
const internalError = { status: 500, body: json(internalErrorReply().body) }
const unavailable = { status: 503, body: "<html><body>Service Unavailable</body></html>" }
const rateLimited = (headers: Record<string, string>) => {
  const reply = rateLimitedReply(new Date(0))
  return { status: 429, body: json(reply.body), headers: { ...reply.headers, ...headers } }
}
const mandate = { status: 200, body: json(exampleOf("mandates", "get")) }
/** The mandate, with what GoCardless says is left of its 1,000 requests a minute until `resetAt` (epoch ms). */
const mandateLeaving = (remaining: number, resetAt: number) => ({
  ...mandate,
  headers: {
    "ratelimit-limit": "1000",
    "ratelimit-remaining": String(remaining),
    "ratelimit-reset": new Date(resetAt).toUTCString()
  }
})
const payment = { status: 201, body: json(exampleOf("payments", "create")) }
const newPayment = {
  amount: 240,
  currency: "GBP",
  mandateId: "MD000123",
  description: "cisbook invoice CB-000001",
  chargeDate: null,
  invoice: { id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", number: "CB-000001" }
} as const

type Reply =
  { readonly status: number; readonly body: string; readonly headers?: Record<string, string> } | "drop" | "hang"

interface Seen {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly body: unknown
  readonly at: number
}

/**
 * A GoCardless that answers each request with the next reply of the script (the last one again
 * when it runs out), to a client for `caller`'s calls.
 */
const scripted = (replies: ReadonlyArray<Reply>, caller: GoCardlessCaller = "interactive") =>
  Effect.gen(function* () {
    const seen = yield* Ref.make<ReadonlyArray<Seen>>([])
    const client = HttpClient.make((request, url) =>
      Effect.gen(function* () {
        const before = yield* Ref.get(seen)
        const reply = replies[Math.min(before.length, replies.length - 1)]!
        const body = request.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(request.body.body)) : null
        yield* Ref.set(seen, [
          ...before,
          {
            method: request.method,
            path: url.pathname,
            idempotencyKey: request.headers["idempotency-key"],
            body,
            at: yield* TestClock.currentTimeMillis
          }
        ])
        if (reply === "hang") return yield* Effect.never
        if (reply === "drop") {
          return yield* new HttpClientError.RequestError({
            request,
            reason: "Transport",
            cause: new Error("ECONNRESET")
          })
        }
        return HttpClientResponse.fromWeb(
          request,
          new Response(reply.body, {
            status: reply.status,
            headers: { "content-type": "application/json", ...reply.headers }
          })
        )
      })
    )
    return { seen, provider: yield* providerOver(client, caller) }
  })

/** The adapter, for `caller`'s calls, over `client` as GoCardless. */
const providerOver = (client: HttpClient.HttpClient, caller: GoCardlessCaller) =>
  Effect.provide(
    DirectDebit,
    goCardlessDirectDebitOver({
      baseUrl: "https://api-sandbox.gocardless.com",
      accessToken: Redacted.make("sandbox_token"),
      caller
    }).pipe(Layer.provide(Layer.succeed(HttpClient.HttpClient, client)))
  )

const MINUTE = 60_000

/**
 * A GoCardless that allows `limit` requests a minute (each minute of the TestClock a window), and
 * counts every request, as GoCardless does: the mandate with the RateLimit headers, or past the
 * limit its 429. `served` is each answer's time and status.
 */
const budgeted = (limit: number, caller: GoCardlessCaller) =>
  Effect.gen(function* () {
    const served = yield* Ref.make<ReadonlyArray<{ readonly at: number; readonly status: number }>>([])
    const client = HttpClient.make((request) =>
      Effect.gen(function* () {
        const at = yield* TestClock.currentTimeMillis
        const window = at - (at % MINUTE)
        const counted = (yield* Ref.get(served)).filter((answer) => answer.at >= window).length
        const reply = counted < limit ? mandate : rateLimited({})
        yield* Ref.update(served, (all) => [...all, { at, status: reply.status }])
        return HttpClientResponse.fromWeb(
          request,
          new Response(reply.body, {
            status: reply.status,
            headers: {
              "content-type": "application/json",
              "ratelimit-limit": String(limit),
              "ratelimit-remaining": String(Math.max(0, limit - counted - 1)),
              "ratelimit-reset": new Date(window + MINUTE).toUTCString()
            }
          })
        )
      })
    )
    return { served, provider: yield* providerOver(client, caller) }
  })

/** The defect a call died of. */
const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined

const times = (seen: Ref.Ref<ReadonlyArray<Seen>>) => Effect.map(Ref.get(seen), (all) => all.map((s) => s.at))

describe("every GoCardless call is limited in time and tried again when it is safe", () => {
  it.effect("a 500 and a 503 are tried again after a back-off with jitter; the third try's answer stands", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted([internalError, unavailable, mandate])
      const call = yield* Effect.fork(provider.getMandate("MD123"))
      yield* TestClock.adjust(Duration.millis(240))
      // The first pause is half to all of 500 ms: not over yet.
      expect(yield* times(seen)).toEqual([0])
      yield* TestClock.adjust(Duration.seconds(2))
      expect((yield* Fiber.join(call)).status).toBe("pending_submission")
      const [first, second, third] = yield* times(seen)
      expect(second! - first!).toBeGreaterThanOrEqual(250)
      expect(second! - first!).toBeLessThanOrEqual(500)
      // The second pause doubles: 500 to 1000 ms.
      expect(third! - second!).toBeGreaterThanOrEqual(500)
    })
  )

  it.effect("GoCardless down through 3 tries: DirectDebitUnavailable, with how long to wait", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted([internalError])
      const call = yield* Effect.fork(Effect.exit(provider.getMandate("MD123")))
      yield* TestClock.adjust(Duration.seconds(10))
      const defect = defectOf(yield* Fiber.join(call))
      expect(defect).toBeInstanceOf(DirectDebitUnavailable)
      expect(defect).toMatchObject({
        message: "GoCardless answered 500 to GET /mandates/MD123",
        retryAfterSeconds: 30
      })
      expect(yield* Ref.get(seen)).toHaveLength(3)
    })
  )

  it.effect("a dropped connection and a call that never answers are tried again; the time limit is 10 seconds", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted(["drop", "hang", mandate])
      const call = yield* Effect.fork(provider.getMandate("MD123"))
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* Ref.get(seen)).toHaveLength(2)
      yield* TestClock.adjust(Duration.millis(9_000))
      // The hanging try is still within its 10 seconds.
      expect(yield* Ref.get(seen)).toHaveLength(2)
      yield* TestClock.adjust(Duration.seconds(3))
      expect((yield* Fiber.join(call)).id).toBe("MD123")
      expect(yield* Ref.get(seen)).toHaveLength(3)

      const { provider: silent } = yield* scripted(["hang"])
      const timedOut = yield* Effect.fork(Effect.exit(silent.getMandate("MD123")))
      yield* TestClock.adjust(Duration.seconds(40))
      expect(defectOf(yield* Fiber.join(timedOut))).toMatchObject({
        message: "GoCardless did not answer within 10s to GET /mandates/MD123"
      })
    })
  )

  it.effect(
    "a 429 waits until GoCardless's RateLimit-Reset, or Retry-After; a pause too long for a request gives up at once",
    () =>
      Effect.gen(function* () {
        const reset = new Date(2_000).toUTCString()
        const { provider, seen } = yield* scripted([rateLimited({ "ratelimit-reset": reset }), mandate])
        const call = yield* Effect.fork(provider.getMandate("MD123"))
        yield* TestClock.adjust(Duration.millis(1_999))
        expect(yield* times(seen)).toEqual([0])
        yield* TestClock.adjust(Duration.millis(1))
        expect((yield* Fiber.join(call)).status).toBe("pending_submission")
        expect(yield* times(seen)).toEqual([0, 2_000])

        const { provider: slow, seen: seenSlow } = yield* scripted([
          { ...unavailable, headers: { "retry-after": "3" } },
          mandate
        ])
        const after = yield* Effect.fork(slow.getMandate("MD123"))
        yield* TestClock.adjust(Duration.seconds(3))
        yield* Fiber.join(after)
        expect((yield* times(seenSlow)).map((at) => at - 2_000)).toEqual([0, 3_000])

        const { provider: spent, seen: seenSpent } = yield* scripted([rateLimited({ "retry-after": "60" })])
        const defect = defectOf(yield* Effect.exit(spent.getMandate("MD123")))
        expect(defect).toMatchObject({ _tag: "DirectDebitUnavailable", retryAfterSeconds: 60 })
        expect(yield* Ref.get(seenSpent)).toHaveLength(1)
      })
  )

  it.effect("a create is tried again with the same Idempotency-Key, and carries the invoice as metadata", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted(["drop", payment])
      const call = yield* Effect.fork(
        provider.createPayment(
          {
            amount: 240,
            currency: "GBP",
            mandateId: "MD000123",
            description: "cisbook invoice CB-000001",
            chargeDate: null,
            invoice: { id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", number: "CB-000001" }
          },
          "0f9d5a4e-5b1a-4c55-9d0e-000000000001"
        )
      )
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* Fiber.join(call)).id).toBe("PM123")
      const [first, second] = yield* Ref.get(seen)
      expect(first?.idempotencyKey).toBe("0f9d5a4e-5b1a-4c55-9d0e-000000000001")
      expect(second?.idempotencyKey).toBe(first?.idempotencyKey)
      expect(second?.body).toEqual({
        payments: {
          amount: 240,
          currency: "GBP",
          description: "cisbook invoice CB-000001",
          retry_if_possible: false,
          metadata: { invoice_id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", invoice_number: "CB-000001" },
          links: { mandate: "MD000123" }
        }
      })
    })
  )

  it.effect(
    "invalid_api_usage is a fault of ours (never retried); invalid_state cancellation_failed is a refusal",
    () =>
      Effect.gen(function* () {
        const { provider, seen } = yield* scripted([
          { status: 400, body: json(published("gocardless-pro-python", "invalid_api_usage_error.json")) }
        ])
        const defect = defectOf(yield* Effect.exit(provider.getMandate("MD123")))
        expect(defect).toBeInstanceOf(DirectDebitFault)
        expect(defect).toMatchObject({ reason: "invalid_api_usage", message: expect.stringMatching(/Root element/) })
        expect(yield* Ref.get(seen)).toHaveLength(1)

        const { provider: cancelled } = yield* scripted([
          { status: 422, body: json(published("gocardless-nodejs", "invalid_state.json")) }
        ])
        const refused = yield* Effect.flip(cancelled.cancelMandate("MD123"))
        expect(refused).toMatchObject({ reason: "cancellation_failed", message: "Payment cannot be cancelled" })
      })
  )
})

describe("GoCardless's rate limit: a call waits for its reset when little is left, before it is sent", () => {
  it.effect("5 requests left: the next call is sent when the budget resets, not before", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted([mandateLeaving(5, 3_000), mandate])
      yield* provider.getMandate("MD123")
      const next = yield* Effect.fork(provider.getMandate("MD123"))
      yield* TestClock.adjust(Duration.millis(2_999))
      expect(yield* times(seen)).toEqual([0])
      yield* TestClock.adjust(Duration.millis(1))
      expect((yield* Fiber.join(next)).id).toBe("MD123")
      expect(yield* times(seen)).toEqual([0, 3_000])
    })
  )

  it.effect("6 requests left, or a budget whose reset has passed: the next call is sent at once", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted([mandateLeaving(6, 3_000), mandateLeaving(0, 4_000), mandate])
      yield* provider.getMandate("MD123")
      yield* provider.getMandate("MD123")
      expect(yield* times(seen)).toEqual([0, 0])
      yield* TestClock.adjust(Duration.seconds(4))
      yield* provider.getMandate("MD123")
      expect(yield* times(seen)).toEqual([0, 0, 4_000])
    })
  )

  it.effect(
    "a reset further ahead than a request waits: DirectDebitUnavailable at once, with the seconds to wait, unsent",
    () =>
      Effect.gen(function* () {
        const { provider, seen } = yield* scripted([mandateLeaving(0, 42_000), mandate])
        yield* provider.getMandate("MD123")
        const defect = defectOf(yield* Effect.exit(provider.createPayment(newPayment, "0f9d5a4e-0001")))
        expect(defect).toBeInstanceOf(DirectDebitUnavailable)
        expect(defect).toMatchObject({
          message: "GoCardless's rate limit is spent until Thu, 01 Jan 1970 00:00:42 GMT: POST /payments was not sent",
          retryAfterSeconds: 42
        })
        expect(yield* Ref.get(seen)).toHaveLength(1)
      })
  )

  it.effect("an answer of an earlier window, arriving late, does not stand for the later one", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted([mandateLeaving(900, 63_000), mandateLeaving(2, 3_000), mandate])
      for (let i = 0; i < 3; i++) yield* provider.getMandate("MD123")
      expect(yield* times(seen)).toEqual([0, 0, 0])
    })
  )

  it.effect("answers without the RateLimit headers, or without a reset, pace nothing", () =>
    Effect.gen(function* () {
      const { provider, seen } = yield* scripted([
        mandate,
        { ...mandate, headers: { "ratelimit-limit": "1000", "ratelimit-remaining": "0" } },
        mandate
      ])
      for (let i = 0; i < 3; i++) yield* provider.getMandate("MD123")
      expect(yield* times(seen)).toEqual([0, 0, 0])
    })
  )

  it.effect(
    "the billing run's client leaves 100 requests to users' and waits out a whole minute; a user's does not",
    () =>
      Effect.gen(function* () {
        const { provider: user, seen: seenUser } = yield* scripted([mandateLeaving(100, 30_000), mandate])
        yield* user.getMandate("MD123")
        yield* user.getMandate("MD123")
        expect(yield* times(seenUser)).toEqual([0, 0])

        const { provider: run, seen: seenRun } = yield* scripted([mandateLeaving(100, 30_000), payment], "bulk")
        yield* run.getMandate("MD123")
        const paced = yield* Effect.fork(run.createPayment(newPayment, "0f9d5a4e-0002"))
        yield* TestClock.adjust(Duration.millis(29_999))
        expect(yield* times(seenRun)).toEqual([0])
        yield* TestClock.adjust(Duration.millis(1))
        yield* Fiber.join(paced)
        expect(yield* times(seenRun)).toEqual([0, 30_000])

        // Spent for a minute: the run waits where a user's request would give up.
        const { provider: runLater, seen: seenLater } = yield* scripted(
          [mandateLeaving(0, 30_000 + 60_000), mandate],
          "bulk"
        )
        yield* runLater.getMandate("MD123")
        const waited = yield* Effect.fork(runLater.getMandate("MD123"))
        yield* TestClock.adjust(Duration.seconds(60))
        yield* Fiber.join(waited)
        expect((yield* times(seenLater)).map((at) => at - 30_000)).toEqual([0, 60_000])
      })
  )

  it.effect(
    "the billing run's calls, 4 at a time and more than GoCardless allows a minute, meet no 429: each minute they stop at the reserve",
    () =>
      Effect.gen(function* () {
        const { provider, served } = yield* budgeted(110, "bulk")
        const calls = 120
        const run = yield* Effect.fork(
          Effect.forEach(Array.from({ length: calls }), () => provider.getMandate("MD123"), { concurrency: 4 })
        )
        for (let minutes = 0; minutes < 15 && Option.isNone(yield* Fiber.poll(run)); minutes++) {
          yield* TestClock.adjust(Duration.minutes(1))
        }
        expect(yield* Fiber.join(run)).toHaveLength(calls)
        const answers = yield* Ref.get(served)
        expect(answers.filter((answer) => answer.status === 429)).toEqual([])
        expect(answers).toHaveLength(calls)
        // Each minute the 10 above the reserve of 100, and up to 3 more sent while the 4th call's
        // answer was on its way; the last minute the rest.
        const perMinute = Array.from(
          { length: Math.floor(answers.at(-1)!.at / MINUTE) + 1 },
          (_, m) => answers.filter((a) => Math.floor(a.at / MINUTE) === m).length
        )
        for (const full of perMinute.slice(0, -1)) {
          expect(full).toBeGreaterThanOrEqual(10)
          expect(full).toBeLessThanOrEqual(13)
        }
        expect(perMinute.at(-1)).toBeLessThanOrEqual(13)
      })
  )
})
