import { DeliveryRepo } from "@cisbook/core/webhooks/DeliveryRepo"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { Transactor } from "@cisbook/core/system/Transactor"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { RecordedEvents } from "../RecordedEvents.js"
import { type ContractIt, storedTenant, storedWebhook } from "./Fixtures.js"

const typesAndData = (events: ReadonlyArray<{ readonly type: string; readonly data: unknown }>) =>
  events.map(({ data, type }) => ({ type, data }))

export const eventOutboxContract = (it: ContractIt) => {
  it.effect("reads recorded events back in order, with their JSON data as given", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const recorded = yield* RecordedEvents
      const tenant = yield* storedTenant
      const first = [
        { type: "contact.created", data: { code: "ACME0001", cisDetails: { firstName: "Ann", utr: null } } },
        { type: "contact.updated", data: ["not", "a", { postgres: "array" }] },
        { type: "contact.deleted", data: "ACME0001" }
      ] as const
      const second = [{ type: "test.webhook", data: { snake_case: 1, nested: [true, 2.5] } }] as const
      yield* outbox.record(tenant.id, first)
      yield* outbox.record(tenant.id, second)
      yield* outbox.record(tenant.id, [])

      const events = yield* recorded.list(tenant.id)
      expect(typesAndData(events)).toEqual([...first, ...second])
      expect(new Set(events.map((e) => e.id)).size).toBe(4)
      expect(events.every((e) => e.tenantId === tenant.id)).toBe(true)
      const [a, b, c, d] = events.map((e) => e.occurredAt.getTime())
      expect(a).toBe(b)
      expect(b).toBe(c)
      expect(d).toBeGreaterThanOrEqual(c ?? Infinity)
    })
  )

  it.effect("keeps data as JSON keeps it: a Date as its ISO string, an undefined member dropped", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const recorded = yield* RecordedEvents
      const tenant = yield* storedTenant
      yield* outbox.record(tenant.id, [
        { type: "contact.updated", data: { at: new Date("2026-11-21T10:15:00.000Z"), gone: undefined } },
        { type: "contact.updated", data: undefined }
      ])
      expect(typesAndData(yield* recorded.list(tenant.id))).toEqual([
        { type: "contact.updated", data: { at: "2026-11-21T10:15:00.000Z" } },
        { type: "contact.updated", data: null }
      ])
    })
  )

  it.effect("keeps the events of a transaction that succeeds, and drops those of one that fails", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const recorded = yield* RecordedEvents
      const { transaction } = yield* Transactor
      const tenant = yield* storedTenant
      const kept = { type: "contact.created", data: { code: "KEPT" } } as const
      const dropped = { type: "contact.deleted", data: { code: "DROPPED" } } as const
      yield* transaction(outbox.record(tenant.id, [kept]))
      const error = yield* Effect.flip(
        transaction(Effect.zipRight(outbox.record(tenant.id, [dropped]), Effect.fail("refused" as const)))
      )
      expect(error).toBe("refused")
      expect(typesAndData(yield* recorded.list(tenant.id))).toEqual([kept])
    })
  )

  it.effect("keeps each tenant's events apart", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const recorded = yield* RecordedEvents
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      const silent = yield* storedTenant
      yield* outbox.record(mine.id, [{ type: "contact.created", data: { code: "MINE" } }])
      yield* outbox.record(theirs.id, [{ type: "contact.created", data: { code: "THEIRS" } }])
      expect(typesAndData(yield* recorded.list(mine.id))).toEqual([{ type: "contact.created", data: { code: "MINE" } }])
      expect(typesAndData(yield* recorded.list(theirs.id))).toEqual([
        { type: "contact.created", data: { code: "THEIRS" } }
      ])
      expect(yield* recorded.list(silent.id)).toEqual([])
    })
  )

  it.effect("queues each event to every enabled webhook of its tenant that subscribes to its kind", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const deliveries = yield* DeliveryRepo
      const recorded = yield* RecordedEvents
      const tenant = yield* storedTenant
      const everyKind = yield* storedWebhook(tenant)
      const created = yield* storedWebhook(tenant, { eventTypes: ["contact.created", "subcontractor.created"] })
      yield* storedWebhook(tenant, { eventTypes: ["contact.created"], enabled: false })
      yield* storedWebhook(yield* storedTenant)
      yield* outbox.record(tenant.id, [
        { type: "contact.created", data: { code: "A" } },
        { type: "contact.deleted", data: { code: "A" } }
      ])
      const [createdEvent, deletedEvent] = yield* recorded.list(tenant.id)
      const page = yield* deliveries.list(tenant.id, { webhookId: null, status: null, offset: 0, limit: 50 })
      const queued = page.items.map((d) => [d.webhookId, d.eventId, d.eventType]).sort()
      expect(queued).toEqual(
        [
          [everyKind.webhook.id, createdEvent?.id, "contact.created"],
          [everyKind.webhook.id, deletedEvent?.id, "contact.deleted"],
          [created.webhook.id, createdEvent?.id, "contact.created"]
        ].sort()
      )
      for (const delivery of page.items) {
        expect(delivery).toMatchObject({ status: "Pending", attempts: 0, lastAttemptAt: null, responseStatus: null })
        expect(delivery.nextAttemptAt).toEqual(createdEvent?.occurredAt)
        expect(delivery.createdAt).toEqual(createdEvent?.occurredAt)
      }
    })
  )

  it.effect("writes and queues hundreds of events at once (an import's batch) as it does a few", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const deliveries = yield* DeliveryRepo
      const recorded = yield* RecordedEvents
      const { transaction } = yield* Transactor
      const tenant = yield* storedTenant
      const everyKind = yield* storedWebhook(tenant)
      const created = yield* storedWebhook(tenant, { eventTypes: ["contact.created"] })
      yield* storedWebhook(yield* storedTenant)
      const many = Array.from({ length: 300 }, (_, i) => ({
        type: i % 2 === 0 ? ("contact.created" as const) : ("subcontractor.created" as const),
        data: { code: `BULK${i}`, name: `Tab\tand new\nline \\N ${i}`, nested: { n: i, none: null } }
      }))
      const refused = yield* Effect.flip(
        transaction(Effect.zipRight(outbox.record(tenant.id, many), Effect.fail("refused" as const)))
      )
      expect(refused).toBe("refused")
      expect(yield* recorded.list(tenant.id)).toEqual([])

      yield* transaction(outbox.record(tenant.id, many))
      const events = yield* recorded.list(tenant.id)
      expect(typesAndData(events)).toEqual(many)
      const all = yield* deliveries.list(tenant.id, { webhookId: null, status: null, offset: 0, limit: 1 })
      expect(all.totalCount).toBe(300 + 150)
      const toCreated = yield* deliveries.list(tenant.id, {
        webhookId: created.webhook.id,
        status: null,
        offset: 0,
        limit: 1
      })
      expect(toCreated.totalCount).toBe(150)
      const toEvery = yield* deliveries.list(tenant.id, {
        webhookId: everyKind.webhook.id,
        status: "Pending",
        offset: 0,
        limit: 1
      })
      expect(toEvery.totalCount).toBe(300)
    })
  )

  it.effect("queues no delivery for an event of a transaction that fails", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const deliveries = yield* DeliveryRepo
      const { transaction } = yield* Transactor
      const tenant = yield* storedTenant
      yield* storedWebhook(tenant)
      yield* Effect.flip(
        transaction(
          Effect.zipRight(outbox.record(tenant.id, [{ type: "contact.created", data: {} }]), Effect.fail("no"))
        )
      )
      expect(
        (yield* deliveries.list(tenant.id, { webhookId: null, status: null, offset: 0, limit: 50 })).totalCount
      ).toBe(0)
    })
  )
}
