import { postgresDatabase } from "@cisbook/adapters/sql/Database"
import { EphemeralDatabase, temporaryPostgresUrl } from "@cisbook/adapters/sql/EphemeralDatabase"
import { migrate } from "@cisbook/adapters/sql/Migrations"
import { httpWebhookSender, webhookSignature } from "@cisbook/adapters/webhooks/HttpWebhookSender"
import { webhookDispatcher } from "../src/workers/WebhookDispatcher.js"
import type { Email } from "@cisbook/core/Email"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { Transactor } from "@cisbook/core/system/Transactor"
import { WebhookSender } from "@cisbook/core/webhooks/WebhookSender"
import { DeliveryRepo } from "@cisbook/core/webhooks/DeliveryRepo"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { WebhookDeliveries } from "@cisbook/core/webhooks/WebhookDeliveries"
import { WebhookDispatch } from "@cisbook/core/webhooks/WebhookDispatch"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { asMember, asSupport } from "@cisbook/core/tenants/ActingFor"
import { startWebhookReceiver, type WebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { appOver, eventually } from "./WorkerTestApp.js"
import { describe, expect, it, layer } from "@effect/vitest"
import { Config, Duration, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { Webhook } from "standardwebhooks"
import { asUser } from "@cisbook/core/users/ActingAs"

const fast = { pollInterval: Duration.millis(20), concurrency: 8, lease: Duration.seconds(60) }

let counter = 0
/** A tenant with a webhook to the receiver, whose secret the receiver trusts. */
const aTenantWithWebhook = (receiver: WebhookReceiver) =>
  Effect.gen(function* () {
    const n = ++counter
    const owner = yield* (yield* Users).create({ email: `owner${n}@example.com` as Email, name: "Owner" })
    const code = `dispatch-${n}-${Date.now().toString(36)}`
    yield* (yield* Tenants).create({ code: TenantCode.make(code), name: "Dispatch", email: null }).pipe(asUser(owner))
    const { secret, webhook } = yield* (yield* Webhooks)
      .create({ url: `${receiver.url}/hooks?n=${n}` })
      .pipe(asMember(owner, code))
    yield* receiver.trust(secret)
    return { owner, code, webhook, secret } as const
  })

/** Runs the dispatcher until the returned effect closes it (as SIGTERM would). */
const startDispatcher = (options: Parameters<typeof webhookDispatcher>[0]) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(webhookDispatcher(options), scope)
    return Scope.close(scope, Exit.void)
  })

const detail = (code: string, id: string) =>
  Effect.flatMap(WebhookDeliveries, (deliveries) => deliveries.listAll({ limit: 50 }).pipe(asSupport(code))).pipe(
    Effect.flatMap((page) => Effect.fromNullable(page.items.find((d) => d.id === id))),
    Effect.orDie
  )

layer(appOver(EphemeralDatabase), { excludeTestServices: true, timeout: "60 seconds" })("webhook dispatcher", (it) => {
  it.scoped("delivers a test event signed per Standard Webhooks, verified by a real receiver", () =>
    Effect.gen(function* () {
      const receiver = yield* startWebhookReceiver
      const { code, owner, secret, webhook } = yield* aTenantWithWebhook(receiver)
      yield* receiver.answerWith(() => ({ status: 200, body: "thanks" }))
      const queued = yield* (yield* Webhooks).test(webhook.id).pipe(asMember(owner, code))
      const stop = yield* startDispatcher(fast)
      const [got] = yield* receiver.waitFor(1)
      const delivered = yield* eventually(detail(code, queued.id), (d) => d.status === "Succeeded")
      yield* stop

      expect(got?.verified).toBe(true)
      expect(() => new Webhook(secret).verify(got!.body, got!.headers)).not.toThrow()
      expect(got?.headers["webhook-id"]).toBe(queued.eventId)
      expect(Math.abs(Number(got?.headers["webhook-timestamp"]) * 1000 - Date.now())).toBeLessThan(10_000)
      expect(got?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
      expect(got?.headers["content-type"]).toBe("application/json")
      expect(JSON.parse(got!.body)).toEqual({
        type: "test.webhook",
        timestamp: queued.createdAt.toISOString(),
        data: { webhookId: webhook.id, message: "A test event from cisbook: this webhook works." }
      })
      expect(delivered).toMatchObject({ status: "Succeeded", attempts: 1, responseStatus: 200, responseBody: "thanks" })
      const { attemptLog } = yield* (yield* WebhookDeliveries).get(queued.id).pipe(asMember(owner, code))
      expect(attemptLog).toHaveLength(1)
      expect(attemptLog[0]).toMatchObject({ responseStatus: 200, error: null })
    })
  )

  it.scoped(
    "records a failing answer and retries it 5 s later, signed again, with the same webhook-id",
    () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        const { code, owner, webhook } = yield* aTenantWithWebhook(receiver)
        yield* receiver.answerWith((_, index) =>
          index === 0 ? { status: 500, body: "x".repeat(10_000) } : { status: 204 }
        )
        const queued = yield* (yield* Webhooks).test(webhook.id).pipe(asMember(owner, code))
        const stop = yield* startDispatcher(fast)
        const failed = yield* eventually(detail(code, queued.id), (d) => d.status === "Failed")
        expect(failed.responseStatus).toBe(500)
        expect(failed.responseBody).toBe("x".repeat(4096))
        expect(failed.nextAttemptAt!.getTime() - failed.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(5_000)
        const [first, second] = yield* receiver.waitFor(2)
        yield* eventually(detail(code, queued.id), (d) => d.status === "Succeeded")
        yield* stop
        expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(4_900)
        expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"])
        expect(second?.verified).toBe(true)
      }),
    { timeout: 30_000 }
  )

  it.scoped("refuses at delivery time a URL that leads to a private address, recording the attempt as failed", () =>
    Effect.gen(function* () {
      const receiver = yield* startWebhookReceiver
      const { code, owner, webhook } = yield* aTenantWithWebhook(receiver)
      const queued = yield* (yield* Webhooks).test(webhook.id).pipe(asMember(owner, code))
      // A dispatcher of a service that allows no private targets (the URL was fine when it was made).
      const strict = WebhookDispatch.Default.pipe(Layer.provide(httpWebhookSender({ allowPrivateTargets: false })))
      yield* Effect.flatMap(WebhookDispatch, (d) => d.dispatchDue(10, fast.lease)).pipe(Effect.provide(strict))
      const { attemptLog, delivery } = yield* (yield* WebhookDeliveries).get(queued.id).pipe(asMember(owner, code))
      expect(delivery).toMatchObject({ status: "Failed", attempts: 1, responseStatus: null })
      expect(attemptLog[0]?.error).toBe(
        "Must be an https URL (plain http is allowed only when WEBHOOK_ALLOW_PRIVATE_TARGETS=true)"
      )
      const https = yield* Effect.flatMap(WebhookSender, (sender) =>
        sender.send({
          url: `https://127.0.0.1:${receiver.port}/`,
          secrets: [Redacted.make("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")],
          messageId: "msg_1",
          timestamp: new Date(),
          body: "{}"
        })
      ).pipe(Effect.provide(httpWebhookSender({ allowPrivateTargets: false })))
      expect(https).toMatchObject({
        responseStatus: null,
        error: expect.stringMatching(/^127\.0\.0\.1 is not a public destination: 127\.0\.0\.1 is a loopback address/)
      })
      expect(yield* receiver.received).toEqual([])
    })
  )

  it.scoped("records a claim's attempts together, in one record, each with its own outcome and retry schedule", () =>
    Effect.gen(function* () {
      const receiver = yield* startWebhookReceiver
      const { code, webhook } = yield* aTenantWithWebhook(receiver)
      // Events with an odd n fail (500), the others are taken (204).
      yield* receiver.answerWith((request) =>
        (JSON.parse(request.body) as { data: { n: number } }).data.n % 2 === 1 ? { status: 500 } : { status: 204 }
      )
      const { transaction } = yield* Transactor
      yield* transaction(
        (yield* EventOutbox).record(
          webhook.tenantId,
          Array.from({ length: 6 }, (_, n) => ({ type: "contact.created" as const, data: { n } }))
        )
      )
      // The repository the dispatcher records through, counting each record and what it held of
      // this tenant (an earlier test's failed delivery may be due again in the same claim).
      const records: Array<number> = []
      const countingRepo = Layer.effect(
        DeliveryRepo,
        Effect.map(DeliveryRepo, (repo) =>
          DeliveryRepo.of({
            ...repo,
            record: (attempts) => {
              const ours = attempts.filter((a) => a.tenantId === webhook.tenantId).length
              if (ours > 0) records.push(ours)
              return repo.record(attempts)
            }
          })
        )
      )
      const scope = yield* Scope.make()
      yield* Layer.buildWithScope(
        webhookDispatcher(fast).pipe(Layer.provide(WebhookDispatch.Default), Layer.provide(countingRepo)),
        scope
      )
      yield* receiver.waitFor(6)
      const all = yield* eventually(
        Effect.flatMap(WebhookDeliveries, (d) => d.listAll({ limit: 50 }).pipe(asSupport(code))),
        (page) => page.items.length === 6 && page.items.every((d) => d.status !== "Pending")
      )
      yield* Scope.close(scope, Exit.void)

      // One claim of all six (8 slots free), attempted together, recorded together.
      expect(records).toEqual([6])
      const nOf = new Map(
        (yield* receiver.received).map((r) => [
          r.headers["webhook-id"],
          (JSON.parse(r.body) as { data: { n: number } }).data.n
        ])
      )
      const byN = new Map(all.items.map((d) => [nOf.get(d.eventId)!, d]))
      for (const [n, delivery] of byN) {
        if (n % 2 === 1) {
          expect(delivery).toMatchObject({ status: "Failed", attempts: 1, responseStatus: 500 })
          // Its own schedule: the first retry 5 s after its attempt.
          expect(delivery.nextAttemptAt!.getTime() - delivery.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(5_000)
          expect(delivery.nextAttemptAt!.getTime() - delivery.lastAttemptAt!.getTime()).toBeLessThan(6_000)
        } else {
          expect(delivery).toMatchObject({ status: "Succeeded", attempts: 1, responseStatus: 204, nextAttemptAt: null })
        }
      }
      expect([...byN.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5])
    })
  )

  it.scoped(
    "re-sends with the same webhook-id, after the lease, a delivery whose dispatcher was stopped mid-flight",
    () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        const { code, owner, webhook } = yield* aTenantWithWebhook(receiver)
        yield* receiver.answerWith((_, index) => (index === 0 ? "hold" : { status: 204 }))
        const queued = yield* (yield* Webhooks).test(webhook.id).pipe(asMember(owner, code))
        const lease = Duration.seconds(1)
        const stopFirst = yield* startDispatcher({ ...fast, lease })
        yield* receiver.waitFor(1)
        yield* stopFirst
        expect(yield* detail(code, queued.id)).toMatchObject({ status: "Pending", attempts: 0 })
        const stopSecond = yield* startDispatcher({ ...fast, lease })
        const [first, second] = yield* receiver.waitFor(2)
        const delivered = yield* eventually(detail(code, queued.id), (d) => d.status === "Succeeded")
        yield* stopSecond
        expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(900)
        expect(second?.headers["webhook-id"]).toBe(queued.eventId)
        expect(first?.headers["webhook-id"]).toBe(queued.eventId)
        expect(delivered).toMatchObject({ attempts: 1, responseStatus: 204 })
      })
  )
})

describe("the HTTP sender", () => {
  const send = (url: string) =>
    Effect.flatMap(WebhookSender, (sender) =>
      sender.send({
        url,
        secrets: [Redacted.make("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")],
        messageId: "msg_p5jXN8AQM9LWM0D4loKWxJek",
        timestamp: new Date(),
        body: '{"test": 2432232314}'
      })
    )

  layer(httpWebhookSender({ allowPrivateTargets: true, timeout: Duration.millis(300) }), {
    excludeTestServices: true
  })("answers", (it) => {
    it.scoped("sends a batch at once, each outcome in its message's place, a bad address failing alone", () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        yield* receiver.answerWith((request) =>
          request.path === "/slow"
            ? { status: 202, delayMs: 100 }
            : request.path === "/fails"
              ? { status: 503, body: "later" }
              : { status: 204 }
        )
        const message = (url: string, messageId: string) => ({
          url,
          secrets: [Redacted.make("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")],
          messageId,
          timestamp: new Date(),
          body: `{"id":"${messageId}"}`
        })
        const outcomes = yield* Effect.flatMap(WebhookSender, (sender) =>
          sender.sendAll([
            message(`${receiver.url}/slow`, "msg_1"),
            message(`${receiver.url}/fails`, "msg_2"),
            message("ftp://example.com/", "msg_3"),
            message(`${receiver.url}/ok`, "msg_4")
          ])
        )
        expect(outcomes).toMatchObject([
          { responseStatus: 202, error: null },
          { responseStatus: 503, responseBody: "later", error: null },
          { responseStatus: null, responseBody: null },
          { responseStatus: 204, error: null }
        ])
        expect(outcomes[2]?.error).toMatch(/https/)
        expect(outcomes[0]!.durationMs).toBeGreaterThanOrEqual(90)
        const received = yield* receiver.received
        expect(received.map((r) => r.headers["webhook-id"]).sort()).toEqual(["msg_1", "msg_2", "msg_4"])
        expect(yield* Effect.flatMap(WebhookSender, (sender) => sender.sendAll([]))).toEqual([])
      })
    )

    it.scoped("does not follow a redirect, gives up after its timeout, and reports a refused connection", () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        yield* receiver.answerWith((request) =>
          request.path === "/moved" ? { status: 302, location: `${receiver.url}/elsewhere` } : { status: 204 }
        )
        const redirected = yield* send(`${receiver.url}/moved`)
        expect(redirected).toMatchObject({ responseStatus: 302, error: "Redirects are not followed" })
        expect((yield* receiver.received).length).toBe(1)

        yield* receiver.answerWith(() => "hold")
        const slow = yield* send(`${receiver.url}/slow`)
        expect(slow).toMatchObject({ responseStatus: null, error: "No answer within 0.3 s" })
        expect(slow.durationMs).toBeGreaterThanOrEqual(290)

        const closed = yield* startWebhookReceiver.pipe(Effect.scoped)
        const refused = yield* send(`${closed.url}/gone`)
        expect(refused).toMatchObject({ responseStatus: null, error: `Connection refused by 127.0.0.1:${closed.port}` })
      })
    )
  })
})

const postgresUrl = Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync)

describe.skipIf(Option.isNone(postgresUrl))(
  "two dispatchers against one PostgreSQL (needs CISBOOK_TEST_DATABASE_URL: PGlite is one connection in one process)",
  () => {
    layer(Layer.empty, { excludeTestServices: true, timeout: "60 seconds" })("exactly once", (it) => {
      it.scoped("deliver each of 300 events exactly once when nothing fails", () =>
        Effect.gen(function* () {
          const url = yield* temporaryPostgresUrl(Option.getOrThrow(postgresUrl))
          const processA = yield* Layer.build(appOver(postgresDatabase(url)))
          const processB = yield* Layer.build(appOver(postgresDatabase(url)))
          yield* Effect.provide(migrate, processA)
          const receiver = yield* startWebhookReceiver
          const { code, webhook } = yield* aTenantWithWebhook(receiver).pipe(Effect.provide(processA))
          const events = 300
          yield* Effect.gen(function* () {
            const outbox = yield* EventOutbox
            const { transaction } = yield* Transactor
            for (let batch = 0; batch < events / 50; batch++) {
              yield* transaction(
                outbox.record(
                  webhook.tenantId,
                  Array.from({ length: 50 }, (_, i) => ({
                    type: "contact.created" as const,
                    data: { n: batch * 50 + i }
                  }))
                )
              )
            }
          }).pipe(Effect.provide(processA))
          const options = { ...fast, concurrency: 16 }
          const stopA = yield* startDispatcher(options).pipe(Effect.provide(processA))
          const stopB = yield* startDispatcher(options).pipe(Effect.provide(processB))
          yield* receiver.waitFor(events, 40)
          const succeeded = yield* eventually(
            Effect.flatMap(WebhookDeliveries, (d) => d.listAll({ status: "Succeeded" }).pipe(asSupport(code))).pipe(
              Effect.provide(processA)
            ),
            (page) => page.totalCount === events
          )
          expect(succeeded.totalCount).toBe(events)
          yield* stopA
          yield* stopB
          // What would send a delivery twice now: a claim after every delivery succeeded. One more
          // pass of each process claims nothing.
          const again = (side: typeof processA) =>
            Effect.flatMap(WebhookDispatch, (dispatch) => dispatch.dispatchDue(events, fast.lease)).pipe(
              Effect.provide(side)
            )
          expect(yield* again(processA)).toBe(0)
          expect(yield* again(processB)).toBe(0)
          const received = yield* receiver.received
          expect(received).toHaveLength(events)
          expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(events)
          expect(received.every((r) => r.verified === true)).toBe(true)
        })
      )
    })
  }
)

describe("the signature", () => {
  it("is the standardwebhooks library's, for every secret, with a rotated-out one beside", () => {
    const secrets = [
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256)).toString("base64")}`,
      `whsec_${Buffer.from("a secret of another length").toString("base64")}`
    ]
    const timestamp = new Date("2026-11-29T05:00:00.999Z")
    for (const body of ['{"test": 2432232314}', '{"name":"Zoë Ó Briain — £5 ✓"}', ""]) {
      for (const secret of secrets) {
        expect(webhookSignature([Redacted.make(secret)], "msg_1", timestamp, body)).toBe(
          new Webhook(secret).sign("msg_1", timestamp, body)
        )
      }
      expect(webhookSignature(secrets.slice(0, 2).map(Redacted.make), "msg_2", timestamp, body)).toBe(
        `${new Webhook(secrets[0]!).sign("msg_2", timestamp, body)} ${new Webhook(secrets[1]!).sign("msg_2", timestamp, body)}`
      )
    }
  })
})
