import { createHmac } from "node:crypto"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { leaseClaim } from "@cisbook/adapters/sql/LeaseClaim"
import { GoCardlessSandbox, GoCardlessSandboxSql } from "@cisbook/fakes/gocardless/GoCardlessSandbox"
import { sweepSandbox } from "@cisbook/fakes/gocardless/SandboxRetention"
import { makeSandboxStore, makeNotificationOutbox, notificationRows } from "@cisbook/fakes/gocardless/SandboxStore"
import { makeNotificationSender, type NotificationOptions } from "@cisbook/fakes/gocardless/SandboxNotifications"
import { ClockManual, ManualClock } from "@cisbook/testkit/SystemFakes"
import { startWebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"

const SECRET = "jobs-test-secret"
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const App = GoCardlessSandboxSql.pipe(
  Layer.provideMerge(Layer.mergeAll(ClockManual, FetchHttpClient.layer)),
  Layer.provideMerge(EphemeralDatabase)
)

const options = (url: string): NotificationOptions => ({
  url: `${url}/webhooks/gocardless`,
  secret: Redacted.make(SECRET),
  retryAfter: Duration.minutes(1),
  maxAttempts: 3
})

const LEASE = Duration.minutes(1)

/** The sender as the server runs it: over the sandbox's outbox, claimed with the server's lease-claim helper. */
const senderTo = (url: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* makeNotificationOutbox(leaseClaim(sql, notificationRows(sql)))
    return yield* makeNotificationSender(outbox, options(url))
  })

/** A mandate made by the sandbox as a billing request, its flow and its hosted page make it. */
const aMandate = Effect.gen(function* () {
  const sandbox = yield* GoCardlessSandbox
  const request = (yield* sandbox.createBillingRequest(
    { billing_requests: { mandate_request: { scheme: "bacs", currency: "GBP" } } },
    `key-${Math.random()}`
  )).body as { billing_requests: { id: string } }
  const id = request.billing_requests.id
  const flow = (yield* sandbox.createBillingRequestFlow(
    { billing_request_flows: { redirect_uri: "https://app.example/done", links: { billing_request: id } } },
    `key-${Math.random()}`,
    "http://localhost/sandbox/gocardless"
  )).body as { billing_request_flows: { id: string } }
  yield* sandbox.submitFlowPage(flow.billing_request_flows.id, {
    account_holder_name: "Ada",
    sort_code: "200000",
    account_number: "55779911"
  })
  const done = (yield* sandbox.getBillingRequest(id)).body as {
    billing_requests: { links: { mandate_request_mandate: string } }
  }
  return done.billing_requests.links.mandate_request_mandate
})

/** Marks the webhooks sent so far delivered, so that a test watches only those of what it does next. */
const delivered = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`UPDATE gocardless_sandbox_webhooks SET next_attempt_at = NULL, delivered_at = created_at`.pipe(Effect.orDie)
)

const rowsOf = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`.pipe(Effect.map((rows) => rows[0]!.n))
  )

layer(App, { excludeTestServices: true, timeout: "60 seconds" })("the GoCardless sandbox's background jobs", (it) => {
  it.scoped("sends each change's webhook signed, retries it with back-off until a 2xx, then never again", () =>
    Effect.gen(function* () {
      const clock = yield* ManualClock
      const receiver = yield* startWebhookReceiver
      yield* receiver.answerWith((_, index) => ({ status: index === 0 ? 500 : 204 }))
      const sender = yield* senderTo(receiver.url)
      const mandate = yield* aMandate
      yield* delivered
      yield* (yield* GoCardlessSandbox).cancelMandate(mandate)

      const first = yield* sender.claim(10, LEASE)
      expect(first).toHaveLength(1)
      yield* sender.record([yield* sender.attempt(first[0]!)])
      expect(yield* sender.claim(10, LEASE)).toEqual([])
      yield* clock.advance(MINUTE - 1)
      expect(yield* sender.claim(10, LEASE)).toEqual([])
      yield* clock.advance(1)
      const again = yield* sender.claim(10, LEASE)
      expect(again.map((w) => [w.id, w.attempts])).toEqual([[first[0]!.id, 1]])
      yield* sender.record([yield* sender.attempt(again[0]!)])
      yield* clock.advance(DAY)
      expect(yield* sender.claim(10, LEASE)).toEqual([])

      const received = yield* receiver.received
      expect(received).toHaveLength(2)
      expect(received[1]!.body).toBe(received[0]!.body)
      for (const request of received) {
        expect(request.headers["webhook-signature"]).toBe(
          createHmac("sha256", SECRET).update(request.body).digest("hex")
        )
        expect(request.headers["user-agent"]).toBe("gocardless-webhook-service/1.1")
      }
      const body = JSON.parse(received[0]!.body)
      expect(body.meta.webhook_id).toBe(first[0]!.id)
      expect(body.events).toMatchObject([{ resource_type: "mandates", action: "cancelled", links: { mandate } }])
    })
  )

  it.scoped(
    "a webhook whose sender died is sent again once its lease runs out; the dead sender's record is ignored",
    () =>
      Effect.gen(function* () {
        const clock = yield* ManualClock
        const receiver = yield* startWebhookReceiver
        const sender = yield* senderTo(receiver.url)
        const mandate = yield* aMandate
        const sandbox = yield* GoCardlessSandbox
        yield* delivered
        yield* sandbox.cancelMandate(mandate)

        const [leased] = yield* sender.claim(10, LEASE)
        expect(leased).toBeDefined()
        // This sender dies here, holding the lease: no one else takes the webhook meanwhile.
        expect(yield* sender.claim(10, LEASE)).toEqual([])
        yield* clock.advance(MINUTE)
        const [retaken] = yield* sender.claim(10, LEASE)
        expect(retaken?.id).toBe(leased!.id)
        yield* sender.record([
          { id: leased!.id, leaseToken: leased!.leaseToken, nextAttemptAt: null, deliveredAt: null, error: "late" }
        ])
        yield* sender.record([yield* sender.attempt(retaken!)])
        yield* clock.advance(DAY)
        expect(yield* sender.claim(10, LEASE)).toEqual([])
        const bodies = (yield* receiver.received).map((request) => JSON.parse(request.body))
        expect(bodies.at(-1).events).toMatchObject([{ action: "cancelled", links: { mandate } }])
      })
  )

  it.scoped("gives a webhook up after its last attempt", () =>
    Effect.gen(function* () {
      const clock = yield* ManualClock
      const receiver = yield* startWebhookReceiver
      yield* receiver.answerWith(() => ({ status: 503 }))
      const sender = yield* senderTo(receiver.url)
      const mandate = yield* aMandate
      yield* delivered
      yield* (yield* GoCardlessSandbox).cancelMandate(mandate)
      for (let attempt = 1; attempt <= 3; attempt++) {
        const claimed = yield* sender.claim(10, LEASE)
        expect(claimed.map((w) => w.attempts)).toEqual([attempt - 1])
        yield* sender.record([yield* sender.attempt(claimed[0]!)])
        yield* clock.advance(2 ** (attempt - 1) * MINUTE)
      }
      yield* clock.advance(DAY)
      expect(yield* sender.claim(10, LEASE)).toEqual([])
      expect(yield* receiver.received).toHaveLength(3)
    })
  )

  it.effect("sweeps everything it made once SANDBOX_RETENTION_DAYS have passed, and nothing younger", () =>
    Effect.gen(function* () {
      const clock = yield* ManualClock
      const store = yield* makeSandboxStore
      const retention = Duration.days(30)
      yield* clock.advance(100 * DAY)
      yield* sweepSandbox(store, retention)
      const mandate = yield* aMandate
      const tables = [
        "gocardless_sandbox_resources",
        "gocardless_sandbox_idempotency_keys",
        "gocardless_sandbox_events",
        "gocardless_sandbox_webhooks"
      ]
      const counts = Effect.forEach(tables, rowsOf)
      // A billing request, its flow, a customer, a bank account and a mandate; the request's and the
      // flow's keys; the events (request created, flow created, mandate created, request fulfilled)
      // and the webhooks (one for each change: create, flow, the page's fulfilment).
      expect(yield* counts).toEqual([5, 2, 4, 3])

      yield* clock.advance(30 * DAY - 1)
      expect(yield* sweepSandbox(store, retention)).toBe(0)
      expect((yield* (yield* GoCardlessSandbox).getMandate(mandate)).status).toBe(200)
      yield* clock.advance(1)
      expect(yield* sweepSandbox(store, retention)).toBe(0)
      yield* clock.advance(1)
      // The fulfilment's second event is a millisecond younger than the first (events of one change are ordered).
      expect(yield* sweepSandbox(store, retention)).toBe(13)
      yield* clock.advance(1)
      expect(yield* sweepSandbox(store, retention)).toBe(1)
      expect(yield* counts).toEqual([0, 0, 0, 0])
      expect((yield* (yield* GoCardlessSandbox).getMandate(mandate)).status).toBe(404)
    })
  )
})
