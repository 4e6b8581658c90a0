import { DestinationGuardFake } from "@cisbook/testkit/DestinationGuardFake"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { answered, WebhookSenderFake } from "@cisbook/testkit/WebhookSenderFake"
import { assert, describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Either, Redacted, Ref } from "effect"
import { NotFound, Refused, ValidationFailed } from "../../src/Errors.js"
import { WebhookRepo } from "../../src/webhooks/WebhookRepo.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { WebhookDeliveries } from "../../src/webhooks/WebhookDeliveries.js"
import { WebhookDispatch } from "../../src/webhooks/WebhookDispatch.js"
import { Webhooks } from "../../src/webhooks/Webhooks.js"
import type { User } from "../../src/users/User.js"
import { asMember, asSupport, asUser, aUser, testApp, testAppWith } from "../TestApp.js"

const TENANT = "acme-builders"
const LEASE = Duration.seconds(60)
const HOUR = 3600_000
const DAY = 24 * HOUR

/** An owner of acme-builders with a webhook to every kind, and the use cases. */
const setUp = Effect.gen(function* () {
  const tenants = yield* Tenants
  const owner = yield* aUser("owner@example.com")
  yield* tenants.create({ code: TenantCode.make(TENANT), name: "Acme", email: null }).pipe(asUser(owner))
  const webhooks = yield* Webhooks
  const created = yield* webhooks.create({ url: "https://hooks.example.com/acme" }).pipe(asMember(owner, TENANT))
  const deliveries = yield* WebhookDeliveries
  const dispatch = yield* WebhookDispatch
  const clock = yield* ManualClock
  const sender = yield* WebhookSenderFake
  return {
    owner,
    webhooks,
    deliveries,
    dispatch,
    clock,
    sender,
    hook: created.webhook,
    secret: created.secret
  } as const
})

/** A repository whose finds wait until `parties` of them have found: racing requests all see the row. */
const findsMeet =
  (parties: number) =>
  (repo: WebhookRepo["Type"]): Effect.Effect<WebhookRepo["Type"]> =>
    Effect.gen(function* () {
      const arrived = yield* Ref.make(0)
      const together = yield* Deferred.make<void>()
      return {
        ...repo,
        find: (tenantId, id) =>
          repo.find(tenantId, id).pipe(
            Effect.tap(() =>
              Effect.flatMap(
                Ref.updateAndGet(arrived, (n) => n + 1),
                (n) => (n < parties ? Effect.void : Deferred.succeed(together, undefined))
              )
            ),
            Effect.zipLeft(Deferred.await(together))
          )
      }
    })

const aContact = (owner: User) =>
  Effect.flatMap(Contacts, (contacts) =>
    contacts.create({ name: "Bo Builders", isCustomer: true }).pipe(asMember(owner, TENANT))
  )

describe("Webhooks", () => {
  it.effect("creates a webhook with a whsec_ secret shown once, enabled for every kind unless told", () =>
    Effect.gen(function* () {
      const { hook, owner, secret, webhooks } = yield* setUp
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(hook).toMatchObject({
        url: "https://hooks.example.com/acme",
        description: null,
        eventTypes: [],
        enabled: true
      })
      const picky = yield* webhooks
        .create({
          url: "https://hooks.example.com/picky",
          description: "",
          eventTypes: ["contact.created", "contact.created", "subcontractor.created"],
          enabled: false
        })
        .pipe(asMember(owner, TENANT))
      expect(picky.webhook).toMatchObject({
        description: null,
        eventTypes: ["contact.created", "subcontractor.created"],
        enabled: false
      })
      expect(picky.secret).not.toBe(secret)
      expect(yield* webhooks.list().pipe(asMember(owner, TENANT))).toEqual([hook, picky.webhook])
      expect(yield* webhooks.get(hook.id).pipe(asMember(owner, TENANT))).toEqual(hook)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a URL the destination guard refuses, naming url, and keeps nothing", () =>
    Effect.gen(function* () {
      const { hook, owner, webhooks } = yield* setUp
      yield* (yield* DestinationGuardFake).refuse("internal.example", "it resolves to 10.0.0.8, a private address")
      const error = yield* Effect.flip(
        webhooks.create({ url: "https://internal.example/x" }).pipe(asMember(owner, TENANT))
      )
      assert(error instanceof ValidationFailed)
      expect(error.errors).toEqual({ url: ["it resolves to 10.0.0.8, a private address"] })
      const replaced = yield* Effect.flip(
        webhooks
          .replace(hook.id, { url: "https://internal.example/y", eventTypes: [], enabled: true })
          .pipe(asMember(owner, TENANT))
      )
      expect(replaced).toBeInstanceOf(ValidationFailed)
      expect(yield* webhooks.list().pipe(asMember(owner, TENANT))).toEqual([hook])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("replaces, rotates the secret of and deletes a webhook", () =>
    Effect.gen(function* () {
      const { dispatch, hook, owner, secret, sender, webhooks } = yield* setUp
      const replaced = yield* webhooks
        .replace(hook.id, {
          url: "https://hooks.example.com/v2",
          description: "v2",
          eventTypes: ["contact.deleted"],
          enabled: false
        })
        .pipe(asMember(owner, TENANT))
      expect(replaced).toMatchObject({
        id: hook.id,
        url: "https://hooks.example.com/v2",
        enabled: false,
        createdAt: hook.createdAt
      })
      yield* webhooks
        .replace(hook.id, { url: replaced.url, eventTypes: [], enabled: true })
        .pipe(asMember(owner, TENANT))
      const rotated = yield* webhooks.rotateSecret(hook.id).pipe(asMember(owner, TENANT))
      expect(rotated).toMatch(/^whsec_/)
      expect(rotated).not.toBe(secret)
      yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
      yield* dispatch.dispatchDue(10, LEASE)
      expect((yield* sender.sent).map((m) => [m.url, m.secrets.map(Redacted.value)])).toEqual([
        [replaced.url, [rotated, secret]]
      ])
      yield* webhooks.remove(hook.id).pipe(asMember(owner, TENANT))
      expect(yield* Effect.flip(webhooks.get(hook.id).pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
      expect(yield* Effect.flip(webhooks.remove(hook.id).pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("of two deletes that both found the webhook, only the one whose delete removed it succeeds", () =>
    Effect.gen(function* () {
      const { hook, owner, webhooks } = yield* setUp
      const outcomes = yield* Effect.all(
        [1, 2].map(() => Effect.either(webhooks.remove(hook.id).pipe(asMember(owner, TENANT)))),
        {
          concurrency: 2
        }
      )
      expect(outcomes.filter(Either.isRight)).toHaveLength(1)
      expect(outcomes.filter(Either.isLeft).map((o) => o.left)).toEqual([expect.any(NotFound)])
    }).pipe(Effect.provide(testAppWith(WebhookRepo, findsMeet(2))))
  )

  it.effect(
    "is NotFound for an unknown or malformed id or another tenant's webhook, and refuses a non-member (NotAMember)",
    () =>
      Effect.gen(function* () {
        const { hook, owner, webhooks } = yield* setUp
        const stranger = yield* aUser("stranger@example.com")
        yield* (yield* Tenants)
          .create({ code: TenantCode.make("other-co"), name: "Other", email: null })
          .pipe(asUser(stranger))
        for (const attempt of [
          webhooks.list().pipe(asMember(stranger, TENANT)),
          webhooks.get(hook.id).pipe(asMember(stranger, TENANT)),
          webhooks.test(hook.id).pipe(asMember(stranger, TENANT))
        ] as Array<Effect.Effect<unknown, NotFound | NotAMember | Refused>>) {
          // The API answers it 404, as for a tenant that does not exist (TenantMemberOrNotFound).
          expect(yield* Effect.flip(attempt)).toBeInstanceOf(NotAMember)
        }
        for (const attempt of [
          webhooks.get(hook.id).pipe(asMember(stranger, "other-co")),
          webhooks.get("not-a-uuid").pipe(asMember(owner, TENANT)),
          webhooks.get("00000000-0000-4000-8000-00000000ffff").pipe(asMember(owner, TENANT)),
          webhooks.rotateSecret(hook.id).pipe(asMember(stranger, "other-co"))
        ] as Array<Effect.Effect<unknown, NotFound | NotAMember | Refused>>) {
          expect(yield* Effect.flip(attempt)).toBeInstanceOf(NotFound)
        }
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("queues a test.webhook delivery to the one webhook, Pending; refuses a disabled webhook", () =>
    Effect.gen(function* () {
      const { hook, owner, webhooks } = yield* setUp
      const other = yield* webhooks.create({ url: "https://hooks.example.com/other" }).pipe(asMember(owner, TENANT))
      const queued = yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
      expect(queued).toMatchObject({
        webhookId: hook.id,
        eventType: "test.webhook",
        status: "Pending",
        attempts: 0,
        nextAttemptAt: new Date("2026-11-21T09:00:00.000Z")
      })
      const deliveries = yield* WebhookDeliveries
      expect((yield* deliveries.list(other.webhook.id, {}).pipe(asMember(owner, TENANT))).totalCount).toBe(0)
      yield* webhooks.replace(hook.id, { url: hook.url, eventTypes: [], enabled: false }).pipe(asMember(owner, TENANT))
      const refused = yield* Effect.flip(webhooks.test(hook.id).pipe(asMember(owner, TENANT)))
      assert(refused instanceof Refused)
      expect(refused.detail).toBe(`The webhook ${hook.id} is disabled: enable it to send a test.`)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("dispatching", () => {
  it.effect("sends an event to each webhook that subscribes, signed with its secret and the event id", () =>
    Effect.gen(function* () {
      const { dispatch, hook, owner, secret, sender, webhooks } = yield* setUp
      yield* webhooks
        .create({
          url: "https://hooks.example.com/deleted",
          eventTypes: ["contact.deleted"]
        })
        .pipe(asMember(owner, TENANT))
      const contact = yield* aContact(owner)
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      const [message] = yield* sender.sent
      assert(message !== undefined)
      expect(message.url).toBe(hook.url)
      expect(message.secrets.map(Redacted.value)).toEqual([secret])
      expect(JSON.parse(message.body)).toEqual({
        type: "contact.created",
        timestamp: "2026-11-21T09:00:00.000Z",
        data: expect.objectContaining({ code: contact.code })
      })
      const page = yield* (yield* WebhookDeliveries).list(hook.id, {}).pipe(asMember(owner, TENANT))
      expect(page.items).toHaveLength(1)
      expect(page.items[0]).toMatchObject({
        status: "Succeeded",
        attempts: 1,
        responseStatus: 200,
        nextAttemptAt: null
      })
      expect(message.messageId).toBe(page.items[0]?.eventId)
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(0)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("retries a failing receiver as the clock reaches each step of the schedule, with the same webhook-id", () =>
    Effect.gen(function* () {
      const { clock, deliveries, dispatch, owner, sender } = yield* setUp
      yield* sender.answerWith(() => answered(503, "down"))
      yield* aContact(owner)
      const steps = [5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      for (const step of steps) {
        yield* clock.advance(step - 1)
        expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(0)
        yield* clock.advance(1)
        expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      }
      yield* clock.advance(100 * HOUR)
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(0)
      const sent = yield* sender.sent
      expect(sent).toHaveLength(8)
      expect(new Set(sent.map((m) => m.messageId)).size).toBe(1)
      expect(new Set(sent.map((m) => m.timestamp.getTime())).size).toBe(8)
      const [delivery] = (yield* deliveries.listAll({}).pipe(asSupport(TENANT))).items
      expect(delivery).toMatchObject({ status: "Failed", attempts: 8, nextAttemptAt: null, responseStatus: 503 })
      const detail = yield* deliveries.get(delivery!.id).pipe(asMember(owner, TENANT))
      expect(detail.attemptLog.map((a) => a.responseStatus)).toEqual(Array(8).fill(503))
      expect(detail.attemptLog.map((a) => a.at.getTime() - detail.attemptLog[0]!.at.getTime())).toEqual(
        steps.reduce((acc, step) => [...acc, (acc.at(-1) ?? 0) + step], [0])
      )
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("sends a retried Failed delivery at once and leaves the automatic schedule as it was", () =>
    Effect.gen(function* () {
      const { clock, deliveries, dispatch, hook, owner, sender, webhooks } = yield* setUp
      yield* sender.answerWith(() => answered(500))
      const queued = yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
      const pending = yield* Effect.flip(deliveries.retry(queued.id).pipe(asMember(owner, TENANT)))
      expect(pending).toEqual(
        new Refused({ detail: `The delivery ${queued.id} is Pending: only a Failed delivery can be retried.` })
      )
      yield* dispatch.dispatchDue(10, LEASE)
      const automatic = new Date("2026-11-21T09:00:05.000Z")
      expect((yield* deliveries.get(queued.id).pipe(asMember(owner, TENANT))).delivery.nextAttemptAt).toEqual(automatic)
      yield* clock.advance(2_000)
      yield* deliveries.retry(queued.id).pipe(asMember(owner, TENANT))
      const requested = (yield* deliveries.get(queued.id).pipe(asMember(owner, TENANT))).delivery
      expect(requested).toMatchObject({ status: "Pending", nextAttemptAt: new Date("2026-11-21T09:00:02.000Z") })
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      const failedAgain = (yield* deliveries.get(queued.id).pipe(asMember(owner, TENANT))).delivery
      expect(failedAgain).toMatchObject({ status: "Failed", attempts: 2, nextAttemptAt: automatic })

      yield* webhooks.replace(hook.id, { url: hook.url, eventTypes: [], enabled: false }).pipe(asMember(owner, TENANT))
      const disabled = yield* Effect.flip(deliveries.retry(queued.id).pipe(asMember(owner, TENANT)))
      expect(disabled).toBeInstanceOf(Refused)
      yield* webhooks.replace(hook.id, { url: hook.url, eventTypes: [], enabled: true }).pipe(asMember(owner, TENANT))
      yield* sender.answerWith(() => answered(204))
      yield* deliveries.retry(queued.id).pipe(asSupport(TENANT))
      yield* dispatch.dispatchDue(10, LEASE)
      expect((yield* deliveries.get(queued.id).pipe(asMember(owner, TENANT))).delivery).toMatchObject({
        status: "Succeeded",
        attempts: 3,
        nextAttemptAt: null,
        responseStatus: 204
      })
      const succeeded = yield* Effect.flip(deliveries.retry(queued.id).pipe(asMember(owner, TENANT)))
      expect(succeeded).toBeInstanceOf(Refused)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("does not send to a disabled webhook; its deliveries wait until it is enabled", () =>
    Effect.gen(function* () {
      const { dispatch, hook, owner, sender, webhooks } = yield* setUp
      yield* aContact(owner)
      yield* webhooks.replace(hook.id, { url: hook.url, eventTypes: [], enabled: false }).pipe(asMember(owner, TENANT))
      yield* aContact(owner)
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(0)
      yield* webhooks.replace(hook.id, { url: hook.url, eventTypes: [], enabled: true }).pipe(asMember(owner, TENANT))
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      expect(yield* sender.sent).toHaveLength(1)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("re-sends a delivery whose dispatcher never recorded its attempt once the lease runs out", () =>
    Effect.gen(function* () {
      const { clock, dispatch, owner, sender } = yield* setUp
      yield* aContact(owner)
      const [claimed] = yield* dispatch.claim(10, LEASE)
      assert(claimed !== undefined)
      // The dispatcher dies here: nothing is recorded.
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(0)
      yield* clock.advance(Duration.toMillis(LEASE))
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      expect((yield* sender.sent).map((m) => m.messageId)).toEqual([claimed.eventId])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("endpoint health", () => {
  it.effect("disables a webhook whose endpoint answers 410 Gone: nothing more is sent to it", () =>
    Effect.gen(function* () {
      const { dispatch, hook, owner, sender, webhooks } = yield* setUp
      const watcher = yield* webhooks
        .create({
          url: "https://hooks.example.com/ops",
          eventTypes: ["webhook.disabled"]
        })
        .pipe(asMember(owner, TENANT))
      yield* sender.answerWith((m) => (m.url === hook.url ? answered(410, "gone") : answered(200)))
      yield* aContact(owner)
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      expect(yield* webhooks.get(hook.id).pipe(asMember(owner, TENANT))).toMatchObject({ enabled: false })
      expect(yield* webhooks.get(watcher.webhook.id).pipe(asMember(owner, TENANT))).toMatchObject({ enabled: true })
      const refused = yield* Effect.flip(webhooks.test(hook.id).pipe(asMember(owner, TENANT)))
      expect(refused).toBeInstanceOf(Refused)
      yield* aContact(owner)
      expect(yield* dispatch.dispatchDue(10, LEASE)).toBe(1)
      const sent = yield* sender.sent
      expect(sent.map((m) => m.url)).toEqual([hook.url, watcher.webhook.url])
      expect(JSON.parse(sent[1]!.body)).toEqual({
        type: "webhook.disabled",
        timestamp: "2026-11-21T09:00:00.000Z",
        data: {
          webhookId: hook.id,
          url: hook.url,
          reason: "Gone",
          failingSince: null,
          disabledAt: "2026-11-21T09:00:00.000Z"
        }
      })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("disables, with a webhook.disabled event, a webhook every attempt to which failed for 5 days", () =>
    Effect.gen(function* () {
      const { clock, dispatch, hook, owner, sender, webhooks } = yield* setUp
      const watcher = yield* webhooks
        .create({
          url: "https://hooks.example.com/ops",
          eventTypes: ["webhook.disabled"]
        })
        .pipe(asMember(owner, TENANT))
      yield* sender.answerWith((m) => (m.url === hook.url ? answered(503, "down") : answered(200)))
      // A test delivery every 12 hours, each failing on its own schedule.
      const start = yield* clock.now
      let disabledAfter: number | null = null
      for (let step = 0; disabledAfter === null && step < 7 * 24 * 12; step++) {
        if (step % (12 * 12) === 0) yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT)).pipe(Effect.ignore)
        yield* dispatch.dispatchDue(10, LEASE)
        if (!(yield* webhooks.get(hook.id).pipe(asMember(owner, TENANT))).enabled) {
          disabledAfter = (yield* clock.now).getTime() - start.getTime()
        }
        yield* clock.advance(5 * 60_000)
      }
      assert(disabledAfter !== null)
      // The streak began with the first attempt, at once; the test queued at 5 days failed it for good.
      expect(disabledAfter).toBe(5 * DAY)
      const toHook = (yield* sender.sent).filter((m) => m.url === hook.url).length
      yield* clock.advance(DAY)
      yield* dispatch.dispatchDue(10, LEASE)
      expect((yield* sender.sent).filter((m) => m.url === hook.url)).toHaveLength(toHook)
      const toWatcher = (yield* sender.sent).filter((m) => m.url === watcher.webhook.url)
      expect(toWatcher.map((m) => JSON.parse(m.body))).toEqual([
        {
          type: "webhook.disabled",
          timestamp: new Date(start.getTime() + disabledAfter).toISOString(),
          data: {
            webhookId: hook.id,
            url: hook.url,
            reason: "FailingFor5Days",
            failingSince: start.toISOString(),
            disabledAt: new Date(start.getTime() + disabledAfter).toISOString()
          }
        }
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("starts the 5 days again after a success, and after the webhook is enabled again", () =>
    Effect.gen(function* () {
      const { clock, dispatch, hook, owner, sender, webhooks } = yield* setUp
      let failing = true
      yield* sender.answerWith(() => answered(failing ? 500 : 204))
      const attemptAfter = (millis: number) =>
        Effect.gen(function* () {
          yield* clock.advance(millis)
          yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
          yield* dispatch.dispatchDue(10, LEASE)
          return (yield* webhooks.get(hook.id).pipe(asMember(owner, TENANT))).enabled
        })
      expect(yield* attemptAfter(0)).toBe(true)
      expect(yield* attemptAfter(4 * DAY)).toBe(true)
      failing = false
      expect(yield* attemptAfter(HOUR)).toBe(true)
      failing = true
      expect(yield* attemptAfter(HOUR)).toBe(true)
      expect(yield* attemptAfter(4 * DAY)).toBe(true)
      expect(yield* attemptAfter(DAY)).toBe(false)
      yield* webhooks.replace(hook.id, { url: hook.url, eventTypes: [], enabled: true }).pipe(asMember(owner, TENANT))
      expect(yield* attemptAfter(HOUR)).toBe(true)
      expect(yield* attemptAfter(4 * DAY)).toBe(true)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("signs with the rotated-out secret too for 24 hours, then with the new one alone", () =>
    Effect.gen(function* () {
      const { clock, dispatch, hook, owner, secret, sender, webhooks } = yield* setUp
      const rotated = yield* webhooks.rotateSecret(hook.id).pipe(asMember(owner, TENANT))
      const secretsAfter = (millis: number) =>
        Effect.gen(function* () {
          yield* clock.advance(millis)
          yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
          yield* dispatch.dispatchDue(10, LEASE)
          return (yield* sender.sent).at(-1)!.secrets.map(Redacted.value)
        })
      expect(yield* secretsAfter(0)).toEqual([rotated, secret])
      expect(yield* secretsAfter(DAY - 1)).toEqual([rotated, secret])
      expect(yield* secretsAfter(1)).toEqual([rotated])
      const again = yield* webhooks.rotateSecret(hook.id).pipe(asMember(owner, TENANT))
      const third = yield* webhooks.rotateSecret(hook.id).pipe(asMember(owner, TENANT))
      expect(yield* secretsAfter(0)).toEqual([third, again])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("WebhookDeliveries", () => {
  it.effect("lists a webhook's deliveries newest first, by status, a page at a time", () =>
    Effect.gen(function* () {
      const { deliveries, dispatch, hook, owner, sender, webhooks } = yield* setUp
      yield* aContact(owner)
      yield* dispatch.dispatchDue(10, LEASE)
      yield* sender.answerWith(() => answered(500))
      const first = yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
      yield* dispatch.dispatchDue(10, LEASE)
      const second = yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
      const all = yield* deliveries.list(hook.id, {}).pipe(asMember(owner, TENANT))
      expect(all.items.map((d) => [d.id, d.status])).toEqual([
        [second.id, "Pending"],
        [first.id, "Failed"],
        [all.items[2]?.id, "Succeeded"]
      ])
      expect(all).toMatchObject({ totalCount: 3, offset: 0, limit: 10 })
      const failed = yield* deliveries.list(hook.id, { status: "Failed", limit: 500 }).pipe(asMember(owner, TENANT))
      expect(failed).toMatchObject({ totalCount: 1, limit: 50, items: [{ id: first.id }] })
      expect((yield* deliveries.list(hook.id, { offset: 2, limit: 1 }).pipe(asMember(owner, TENANT))).items).toEqual([
        all.items[2]
      ])
      const invalid = yield* Effect.flip(
        deliveries.list(hook.id, { offset: -1, limit: 0 }).pipe(asMember(owner, TENANT))
      )
      assert(invalid instanceof ValidationFailed)
      expect(Object.keys(invalid.errors).sort()).toEqual(["limit", "offset"])
      expect(yield* Effect.flip(deliveries.list("nope", {}).pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
      expect(yield* Effect.flip(deliveries.get("nope").pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("keeps deliveries within their tenant", () =>
    Effect.gen(function* () {
      const { deliveries, hook, owner, webhooks } = yield* setUp
      const queued = yield* webhooks.test(hook.id).pipe(asMember(owner, TENANT))
      const stranger = yield* aUser("stranger@example.com")
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("other-co"), name: "Other", email: null })
        .pipe(asUser(stranger))
      expect(yield* Effect.flip(deliveries.get(queued.id).pipe(asMember(stranger, "other-co")))).toBeInstanceOf(
        NotFound
      )
      expect(yield* Effect.flip(deliveries.retry(queued.id).pipe(asMember(stranger, "other-co")))).toBeInstanceOf(
        NotFound
      )
      expect(yield* Effect.flip(deliveries.get(queued.id).pipe(asMember(stranger, TENANT)))).toBeInstanceOf(NotAMember)
      expect(yield* Effect.flip(deliveries.list(hook.id, {}).pipe(asMember(stranger, "other-co")))).toBeInstanceOf(
        NotFound
      )
      expect((yield* deliveries.listAll({}).pipe(asSupport("other-co"))).totalCount).toBe(0)
    }).pipe(Effect.provide(testApp()))
  )
})
