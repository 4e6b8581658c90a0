import { DeliveryId } from "@cisbook/core/Ids"
import { Clock } from "@cisbook/core/system/Clock"
import { type ClaimedDelivery, DeliveryRepo, type RecordedAttempt } from "@cisbook/core/webhooks/DeliveryRepo"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { WebhookRepo } from "@cisbook/core/webhooks/WebhookRepo"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import type { DeliverySchedule } from "@cisbook/core/webhooks/DeliverySchedule"
import type { EndpointVerdict } from "@cisbook/core/webhooks/EndpointHealth"
import { Webhook } from "@cisbook/core/webhooks/Webhook"
import { DeliveryAttempt } from "@cisbook/core/webhooks/WebhookDelivery"
import { expect } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { RecordedEvents } from "../RecordedEvents.js"
import { type ContractIt, fresh, storedTenant, storedWebhook } from "./Fixtures.js"

const everything = { webhookId: null, status: null, offset: 0, limit: 50 } as const
const seconds = (at: Date, n: number) => new Date(at.getTime() + n * 1000)

/**
 * Claims see every tenant's deliveries, and the store is shared by all the contracts: a claim
 * test first leases whatever is due (until far in the future), so it sees only its own.
 */
const leaseEverythingDue = Effect.flatMap(DeliveryRepo, (repo) =>
  repo.claimDue(new Date("2999-01-01T00:00:00Z"), new Date("3000-01-01T00:00:00Z"), 1_000_000)
)

/** A tenant with one webhook, `count` contact.created events queued to it, and the time after. */
const queued = (count: number) =>
  Effect.gen(function* () {
    const tenant = yield* storedTenant
    const hook = yield* storedWebhook(tenant)
    for (let i = 0; i < count; i++) {
      yield* (yield* EventOutbox).record(tenant.id, [{ type: "contact.created", data: { n: i } }])
    }
    const now = yield* (yield* Clock).now
    return { tenant, ...hook, now } as const
  })

const attempt = (at: Date, responseStatus: number | null, fields: Partial<DeliveryAttempt> = {}) =>
  new DeliveryAttempt({ at, responseStatus, responseBody: null, durationMs: 12, error: null, ...fields })

const recorded = (
  claimed: ClaimedDelivery,
  schedule: Partial<DeliverySchedule>,
  result: DeliveryAttempt,
  endpoint: EndpointVerdict = { _tag: "Answering" }
): RecordedAttempt => ({
  tenantId: claimed.tenantId,
  id: claimed.id,
  leaseToken: claimed.leaseToken,
  attempt: result,
  schedule: { ...claimed.schedule, attempts: claimed.schedule.attempts + 1, ...schedule },
  webhookId: claimed.endpoint.webhookId,
  endpoint
})

const ofTenant = (tenant: Tenant) => (claimed: ReadonlyArray<ClaimedDelivery>) =>
  claimed.filter((c) => c.tenantId === tenant.id)

export const deliveryRepoContract = (it: ContractIt) => {
  it.effect("queues a test event to one webhook alone, whatever it subscribes to, and keeps the event", () =>
    Effect.gen(function* () {
      const repo = yield* DeliveryRepo
      const tenant = yield* storedTenant
      const { webhook } = yield* storedWebhook(tenant, { eventTypes: ["contact.deleted"] })
      yield* storedWebhook(tenant)
      const id = yield* repo.queueFor(tenant.id, webhook.id, { type: "test.webhook", data: { webhookId: webhook.id } })
      const found = yield* repo.find(tenant.id, id)
      assertSome(found)
      expect(found.value.attemptLog).toEqual([])
      expect(found.value.delivery).toMatchObject({
        id,
        tenantId: tenant.id,
        webhookId: webhook.id,
        eventType: "test.webhook",
        status: "Pending",
        attempts: 0,
        lastAttemptAt: null,
        nextAttemptAt: found.value.delivery.createdAt,
        responseStatus: null,
        responseBody: null
      })
      expect((yield* repo.list(tenant.id, everything)).totalCount).toBe(1)
      const [event] = yield* (yield* RecordedEvents).list(tenant.id)
      expect(event).toMatchObject({
        id: found.value.delivery.eventId,
        type: "test.webhook",
        data: { webhookId: webhook.id }
      })
    })
  )

  it.effect("lists deliveries newest first, by webhook and status, a page at a time, within the tenant", () =>
    Effect.gen(function* () {
      const repo = yield* DeliveryRepo
      const outbox = yield* EventOutbox
      const tenant = yield* storedTenant
      const first = yield* storedWebhook(tenant)
      const second = yield* storedWebhook(tenant, { eventTypes: ["contact.deleted"] })
      for (const type of ["contact.created", "contact.deleted", "contact.updated"] as const) {
        yield* outbox.record(tenant.id, [{ type, data: null }])
      }
      const all = yield* repo.list(tenant.id, everything)
      expect(all.totalCount).toBe(4)
      expect(all.items.map((d) => [d.eventType, d.webhookId])).toEqual([
        ["contact.updated", first.webhook.id],
        ["contact.deleted", second.webhook.id],
        ["contact.deleted", first.webhook.id],
        ["contact.created", first.webhook.id]
      ])
      const page = yield* repo.list(tenant.id, { ...everything, webhookId: first.webhook.id, offset: 1, limit: 1 })
      expect(page).toEqual({ totalCount: 3, items: [all.items[2]] })
      expect(yield* repo.list(tenant.id, { ...everything, status: "Failed" })).toEqual({ totalCount: 0, items: [] })
      expect((yield* repo.list(tenant.id, { ...everything, status: "Pending" })).totalCount).toBe(4)
      const other = yield* storedTenant
      expect(yield* repo.list(other.id, everything)).toEqual({ totalCount: 0, items: [] })
      expect(yield* repo.find(other.id, all.items[0]!.id)).toEqual(Option.none())
      const { id } = yield* fresh
      expect(yield* repo.find(tenant.id, DeliveryId.make(id))).toEqual(Option.none())
    })
  )

  it.effect(
    "leases due deliveries with their event, URL and secret, each to one claimer until the lease runs out",
    () =>
      Effect.gen(function* () {
        const repo = yield* DeliveryRepo
        yield* leaseEverythingDue
        const { now, secret, tenant, webhook } = yield* queued(3)
        const [a, b] = yield* Effect.all(
          [repo.claimDue(now, seconds(now, 60), 2), repo.claimDue(now, seconds(now, 60), 2)],
          {
            concurrency: 2
          }
        )
        const claimed = [...(a ?? []), ...(b ?? [])]
        expect(claimed).toHaveLength(3)
        expect(new Set(claimed.map((c) => c.id)).size).toBe(3)
        expect(ofTenant(tenant)(claimed)).toHaveLength(3)
        const one = claimed.find((c) => (c.eventData as { n: number }).n === 0)!
        expect(one).toMatchObject({
          eventType: "contact.created",
          eventData: { n: 0 },
          endpoint: { webhookId: webhook.id, url: webhook.url, failingSince: null },
          schedule: { status: "Pending", attempts: 0, automaticAttempts: 0, retryRequestedAt: null }
        })
        expect(one.secrets.map(Redacted.value)).toEqual([Redacted.value(secret)])
        expect(one.schedule.nextAttemptAt).toEqual(one.occurredAt)
        expect(yield* repo.claimDue(seconds(now, 59), seconds(now, 120), 10)).toEqual([])
        const again = yield* repo.claimDue(seconds(now, 60), seconds(now, 120), 10)
        expect(again.map((c) => c.id).sort()).toEqual(claimed.map((c) => c.id).sort())
        expect(again.every((c) => c.leaseToken !== one.leaseToken)).toBe(true)
      })
  )

  it.effect("claims nothing not yet due nor of a disabled webhook, and the earliest due first", () =>
    Effect.gen(function* () {
      const repo = yield* DeliveryRepo
      const webhooks = yield* WebhookRepo
      yield* leaseEverythingDue
      const { now, tenant, webhook } = yield* queued(3)
      const claimed = yield* repo.claimDue(now, seconds(now, 1), 10)
      // Each is failed again, due 30, 10 and 20 seconds on.
      yield* repo.record(
        claimed.map((c, i) =>
          recorded(c, { status: "Failed", nextAttemptAt: seconds(now, [30, 10, 20][i]!) }, attempt(now, 500))
        )
      )
      expect(yield* repo.claimDue(seconds(now, 9), seconds(now, 100), 10)).toEqual([])
      const first = yield* repo.claimDue(seconds(now, 25), seconds(now, 26), 1)
      expect(first.map((c) => c.id)).toEqual([claimed[1]!.id])
      yield* webhooks.update(new Webhook({ ...webhook, enabled: false }))
      expect(ofTenant(tenant)(yield* repo.claimDue(seconds(now, 40), seconds(now, 100), 10))).toEqual([])
      yield* webhooks.update(webhook)
      expect(yield* repo.claimDue(seconds(now, 40), seconds(now, 100), 10)).toHaveLength(3)
    })
  )

  it.effect("records an attempt and its schedule under the lease, and drops one whose lease was taken over", () =>
    Effect.gen(function* () {
      const repo = yield* DeliveryRepo
      yield* leaseEverythingDue
      const { now, tenant } = yield* queued(1)
      const [stale] = yield* repo.claimDue(now, seconds(now, 1), 1)
      const [current] = yield* repo.claimDue(seconds(now, 1), seconds(now, 61), 1)
      assertDefined(stale)
      assertDefined(current)
      expect(current.id).toBe(stale.id)
      const late = recorded(stale, { status: "Succeeded", nextAttemptAt: null }, attempt(now, 200))
      yield* repo.record([late])
      const failed = attempt(seconds(now, 2), 503, { responseBody: "busy", durationMs: 40 })
      const schedule = { status: "Failed", automaticAttempts: 1, nextAttemptAt: seconds(now, 7) } as const
      yield* repo.record([recorded(current, schedule, failed)])
      yield* repo.record([recorded(current, { status: "Succeeded" }, attempt(now, 200))])
      const found = yield* repo.find(tenant.id, current.id)
      assertSome(found)
      expect(found.value.attemptLog).toEqual([failed])
      expect(found.value.delivery).toMatchObject({
        status: "Failed",
        attempts: 1,
        lastAttemptAt: failed.at,
        nextAttemptAt: seconds(now, 7),
        responseStatus: 503,
        responseBody: "busy"
      })
      const [next] = yield* repo.claimDue(seconds(now, 7), seconds(now, 67), 1)
      expect(next?.schedule).toEqual({ ...schedule, attempts: 1, retryRequestedAt: null })
      const ok = attempt(seconds(now, 8), 204, { responseBody: "" })
      yield* repo.record([recorded(next!, { status: "Succeeded", nextAttemptAt: null }, ok)])
      const done = yield* repo.find(tenant.id, current.id)
      expect(
        Option.map(done, (d) => [d.delivery.status, d.delivery.attempts, d.delivery.nextAttemptAt, d.attemptLog])
      ).toEqual(Option.some(["Succeeded", 2, null, [failed, ok]]))
    })
  )

  it.effect("takes a retry request only for a Failed delivery no one holds, keeping its automatic schedule", () =>
    Effect.gen(function* () {
      const repo = yield* DeliveryRepo
      yield* leaseEverythingDue
      const { now, tenant } = yield* queued(1)
      const [claimed] = yield* repo.claimDue(now, seconds(now, 60), 1)
      assertDefined(claimed)
      expect(yield* repo.requestRetry(tenant.id, claimed.id, now)).toBe(false)
      const schedule = { status: "Failed", automaticAttempts: 1, nextAttemptAt: seconds(now, 300) } as const
      yield* repo.record([recorded(claimed, schedule, attempt(now, 500))])
      const other = yield* storedTenant
      expect(yield* repo.requestRetry(other.id, claimed.id, now)).toBe(false)
      expect(yield* repo.requestRetry(tenant.id, claimed.id, seconds(now, 5))).toBe(true)
      expect(yield* repo.requestRetry(tenant.id, claimed.id, seconds(now, 6))).toBe(false)
      const found = yield* repo.find(tenant.id, claimed.id)
      expect(Option.map(found, (d) => [d.delivery.status, d.delivery.nextAttemptAt])).toEqual(
        Option.some(["Pending", seconds(now, 5)])
      )
      const [retried] = yield* repo.claimDue(seconds(now, 5), seconds(now, 65), 1)
      expect(retried?.schedule).toEqual({
        ...schedule,
        status: "Pending",
        attempts: 1,
        retryRequestedAt: seconds(now, 5)
      })
    })
  )
}

export const webhookHealthContract = (it: ContractIt) => {
  it.effect("signs with a rotated-out secret too until its time is up; a second rotation drops the first secret", () =>
    Effect.gen(function* () {
      const repo = yield* DeliveryRepo
      const webhooks = yield* WebhookRepo
      yield* leaseEverythingDue
      const { now, secret, tenant, webhook } = yield* queued(1)
      expect(yield* webhooks.setSecret(tenant.id, webhook.id, Redacted.make("whsec_second"), seconds(now, 100))).toBe(
        true
      )
      const secretsAt = (at: Date) =>
        Effect.map(repo.claimDue(at, seconds(at, 1), 10), (claimed) =>
          ofTenant(tenant)(claimed).flatMap((c) => c.secrets.map(Redacted.value))
        )
      expect(yield* secretsAt(now)).toEqual(["whsec_second", Redacted.value(secret)])
      expect(yield* secretsAt(seconds(now, 99))).toEqual(["whsec_second", Redacted.value(secret)])
      expect(yield* secretsAt(seconds(now, 100))).toEqual(["whsec_second"])
      yield* webhooks.setSecret(tenant.id, webhook.id, Redacted.make("whsec_third"), seconds(now, 200))
      expect(yield* secretsAt(seconds(now, 150))).toEqual(["whsec_third", "whsec_second"])
    })
  )

  it.effect(
    "applies each recorded attempt's verdict to its webhook, oldest first, and returns the attempts that disabled one",
    () =>
      Effect.gen(function* () {
        const repo = yield* DeliveryRepo
        const webhooks = yield* WebhookRepo
        yield* leaseEverythingDue
        const { now, tenant, webhook } = yield* queued(2)
        const failing = (at: number): EndpointVerdict => ({ _tag: "Failing", since: seconds(now, at) })
        const answering: EndpointVerdict = { _tag: "Answering" }
        const gone: EndpointVerdict = {
          _tag: "Disable",
          reason: "Gone",
          event: { type: "webhook.disabled", data: { webhookId: webhook.id } }
        }
        /** Claims both deliveries at `at`, records each attempt with its verdict; the streak each claim saw. */
        const round = (at: number, verdicts: ReadonlyArray<readonly [number, EndpointVerdict]>) =>
          Effect.gen(function* () {
            const claimed = ofTenant(tenant)(yield* repo.claimDue(seconds(now, at), seconds(now, at + 1), 10))
            const again = { status: "Failed", nextAttemptAt: seconds(now, at + 10) } as const
            const disabled = yield* repo.record(
              claimed.map((c, i) => recorded(c, again, attempt(seconds(now, verdicts[i]![0]), 500), verdicts[i]![1]))
            )
            return { seen: claimed.map((c) => c.endpoint.failingSince), disabled: disabled.map((d) => d.id), claimed }
          })
        // Given newest first: applied oldest first, the success (at 2 s) ends the streak the failure began.
        const first = yield* round(0, [
          [2, answering],
          [1, failing(1)]
        ])
        expect(first.seen).toEqual([null, null])
        const second = yield* round(10, [
          [11, failing(11)],
          [12, failing(11)]
        ])
        expect(second.seen).toEqual([null, null])
        const third = yield* round(20, [
          [21, failing(11)],
          [22, gone]
        ])
        expect(third.seen).toEqual([seconds(now, 11), seconds(now, 11)])
        expect(third.disabled).toEqual([third.claimed[1]!.id])
        expect(Option.map(yield* webhooks.find(tenant.id, webhook.id), (w) => w.enabled)).toEqual(Option.some(false))
        expect((yield* round(30, [])).claimed).toEqual([])
        yield* webhooks.update(webhook)
        const fourth = yield* round(40, [
          [41, failing(41)],
          [41, failing(41)]
        ])
        expect(fourth.seen).toEqual([null, null])
        // Disabled and enabled again by its tenant, it starts with no failing streak.
        yield* webhooks.update(new Webhook({ ...webhook, enabled: false }))
        yield* webhooks.update(webhook)
        expect(
          (yield* round(60, [
            [61, answering],
            [61, answering]
          ])).seen
        ).toEqual([null, null])
        // Two attempts that each find the webhook gone: the older disables it, the newer finds it disabled.
        const twice = yield* round(70, [
          [72, gone],
          [71, gone]
        ])
        expect(twice.disabled).toEqual([twice.claimed[1]!.id])
      })
  )
}

function assertSome<A>(option: Option.Option<A>): asserts option is Option.Some<A> {
  expect(Option.isSome(option)).toBe(true)
}

function assertDefined<A>(value: A | undefined): asserts value is A {
  expect(value).toBeDefined()
}
