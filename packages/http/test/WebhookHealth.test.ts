import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { CryptoLive } from "@cisbook/adapters/system/CryptoLive"
import { IdGeneratorLive } from "@cisbook/adapters/system/IdGeneratorLive"
import type { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { WebhookDispatch } from "@cisbook/core/webhooks/WebhookDispatch"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { type ReceivedWebhook, startWebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { assert, expect, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer, TestClock, TestContext } from "effect"
import { Webhook } from "standardwebhooks"
import { vi } from "vitest"
import { appOver } from "./WorkerTestApp.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const HOUR = 3600_000
const DAY = 24 * HOUR
const LEASE = Duration.seconds(60)

let counter = 0
/** An owner of a new tenant with a webhook to `url`. */
const aTenantWithWebhook = (url: string) =>
  Effect.gen(function* () {
    const n = ++counter
    const owner = yield* (yield* Users).create({ email: `health${n}@example.com` as Email, name: "Owner" })
    const code = `health-${n}-${Date.now().toString(36)}`
    yield* (yield* Tenants).create({ code: TenantCode.make(code), name: "Health", email: null }).pipe(asUser(owner))
    const webhooks = yield* Webhooks
    const { secret, webhook } = yield* webhooks.create({ url }).pipe(asMember(owner, code))
    return { owner, code, webhook, secret, webhooks } as const
  })

/** Whether `secret` verifies the request, per the standardwebhooks library, at the time it was signed. */
const verifies = (secret: string, got: ReceivedWebhook) => {
  // The library checks the timestamp against Date.now(): the TestClock's time is shown to it.
  vi.setSystemTime(Number(got.headers["webhook-timestamp"]) * 1000)
  try {
    new Webhook(secret).verify(got.body, got.headers)
    return true
  } catch {
    return false
  } finally {
    vi.useRealTimers()
  }
}

/** The app over a database, its clock Effect's own: moved by TestClock, not by real time. */
const app = appOver(EphemeralDatabase, Layer.mergeAll(ClockOfEffect, IdGeneratorLive, CryptoLive))

layer(app, { excludeTestServices: true, timeout: "60 seconds" })("webhook health, with the TestClock", (it) => {
  /** Runs a test with the TestClock as Effect's clock, starting at the real time. */
  const onTestClock = <A, E, R>(test: Effect.Effect<A, E, R>) =>
    Effect.zipRight(TestClock.setTime(Date.now()), test).pipe(Effect.provide(TestContext.TestContext))

  it.scoped("signs with the old and the new secret for 24 hours after a rotation, then with the new alone", () =>
    onTestClock(
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        const { code, owner, secret, webhook, webhooks } = yield* aTenantWithWebhook(`${receiver.url}/in`)
        const dispatch = yield* WebhookDispatch
        const sendTest = Effect.gen(function* () {
          yield* webhooks.test(webhook.id).pipe(asMember(owner, code))
          expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
          return (yield* receiver.received).at(-1)!
        })
        const before = yield* sendTest
        const rotated = yield* webhooks.rotateSecret(webhook.id).pipe(asMember(owner, code))
        const justAfter = yield* sendTest
        yield* TestClock.adjust(Duration.millis(DAY - 1000))
        const lastSecond = yield* sendTest
        yield* TestClock.adjust(Duration.seconds(1))
        const dayAfter = yield* sendTest

        expect([verifies(secret, before), verifies(rotated, before)]).toEqual([true, false])
        expect(justAfter.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/)
        for (const got of [justAfter, lastSecond]) {
          expect([verifies(secret, got), verifies(rotated, got)]).toEqual([true, true])
        }
        expect(dayAfter.headers["webhook-signature"]).toMatch(/^v1,\S+$/)
        expect([verifies(secret, dayAfter), verifies(rotated, dayAfter)]).toEqual([false, true])
      })
    )
  )

  it.scoped("disables a webhook every attempt to which failed for 5 days, with a webhook.disabled event", () =>
    onTestClock(
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        yield* receiver.answerWith((request) => (request.path === "/down" ? { status: 503 } : { status: 204 }))
        const { code, owner, webhook, webhooks } = yield* aTenantWithWebhook(`${receiver.url}/down`)
        yield* webhooks
          .create({ url: `${receiver.url}/ops`, eventTypes: ["webhook.disabled"] })
          .pipe(asMember(owner, code))
        const dispatch = yield* WebhookDispatch
        const start = yield* Clock.currentTimeMillis
        // A test every 12 hours, each failing on its own retry schedule; the dispatcher runs hourly.
        let disabledAfter: number | null = null
        for (let hour = 0; disabledAfter === null && hour <= 6 * 24; hour++) {
          if (hour % 12 === 0) yield* webhooks.test(webhook.id).pipe(asMember(owner, code))
          yield* dispatch.dispatchDue(50, LEASE)
          if (!(yield* webhooks.get(webhook.id).pipe(asMember(owner, code))).enabled) disabledAfter = hour * HOUR
          else yield* TestClock.adjust(Duration.hours(1))
        }
        expect(disabledAfter).toBe(5 * DAY)
        const failedAttempts = (yield* receiver.received).filter((r) => r.path === "/down").length
        yield* dispatch.dispatchDue(50, LEASE)
        yield* TestClock.adjust(Duration.days(1))
        yield* dispatch.dispatchDue(50, LEASE)
        const received = yield* receiver.received
        expect(received.filter((r) => r.path === "/down")).toHaveLength(failedAttempts)
        const toOps = received.filter((r) => r.path === "/ops")
        assert(toOps.length === 1)
        expect(JSON.parse(toOps[0]!.body)).toEqual({
          type: "webhook.disabled",
          timestamp: new Date(start + 5 * DAY).toISOString(),
          data: {
            webhookId: webhook.id,
            url: webhook.url,
            reason: "FailingFor5Days",
            failingSince: new Date(start).toISOString(),
            disabledAt: new Date(start + 5 * DAY).toISOString()
          }
        })
      })
    )
  )
})
