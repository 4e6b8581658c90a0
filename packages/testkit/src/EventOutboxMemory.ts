import type { NewEvent } from "@cisbook/core/events/Event"
import { eventJsonText } from "@cisbook/core/events/EventJson"
import { DeliveryId, type TenantId } from "@cisbook/core/Ids"
import { Clock } from "@cisbook/core/system/Clock"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { firstAttempt } from "@cisbook/core/webhooks/DeliverySchedule"
import type { Webhook } from "@cisbook/core/webhooks/Webhook"
import { Effect, Layer, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"
import { type RecordedEvent, RecordedEvents } from "./RecordedEvents.js"
import { DeliveryStore, WebhookStore } from "./WebhookStores.js"

/** Every recorded event, oldest first; a journal cell, so a failed transaction drops its events. */
export class OutboxStore extends Effect.Service<OutboxStore>()("testkit/OutboxStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<RecordedEvent>>([]))
}) {}

/** Writes events and queues their deliveries, as the SQL outbox does in its tables. */
export const outboxWriter = Effect.gen(function* () {
  const store = yield* OutboxStore
  const webhooks = yield* WebhookStore
  const deliveries = yield* DeliveryStore
  const ids = yield* IdGenerator
  const clock = yield* Clock

  const recordEvents = (tenantId: TenantId, events: ReadonlyArray<NewEvent>) =>
    Effect.gen(function* () {
      const occurredAt = yield* clock.now
      // Through JSON, as the json column gives it back: a Date becomes a string, undefined null.
      const recorded = yield* Effect.forEach(events, ({ data, type }) =>
        Effect.map(ids.uuid, (id): RecordedEvent => ({
          id,
          tenantId,
          type,
          data: JSON.parse(eventJsonText(data)),
          occurredAt
        }))
      )
      yield* Ref.update(store, (all) => [...all, ...recorded])
      return recorded
    })

  /** Queues the event to each webhook of its tenant that `to` picks. */
  const queue = (event: RecordedEvent, to: (webhook: Webhook) => boolean) =>
    Effect.gen(function* () {
      const hooks = (yield* Ref.get(webhooks)).filter(
        ({ webhook }) => webhook.tenantId === event.tenantId && to(webhook)
      )
      const rows = yield* Effect.forEach(hooks, ({ webhook }) =>
        Effect.map(ids.uuid, (id) => ({
          tenantId: event.tenantId,
          id: DeliveryId.make(id),
          webhookId: webhook.id,
          eventId: event.id,
          eventType: event.type,
          createdAt: event.occurredAt,
          schedule: firstAttempt(event.occurredAt),
          lease: null
        }))
      )
      yield* Ref.update(deliveries, (d) => ({ ...d, rows: [...d.rows, ...rows] }))
      return rows
    })

  return { recordEvents, queue } as const
})

export const EventOutboxMemory = Layer.effect(
  EventOutbox,
  Effect.map(outboxWriter, ({ queue, recordEvents }) =>
    EventOutbox.of({
      record: (tenantId, events) =>
        Effect.flatMap(recordEvents(tenantId, events), (recorded) =>
          Effect.forEach(recorded, (event) =>
            queue(event, (webhook) => webhook.enabled && webhook.subscribesTo(event.type))
          )
        ).pipe(Effect.asVoid)
    })
  )
)

/** The memory outbox's events of one tenant, oldest first. */
export const RecordedEventsMemory = Layer.effect(
  RecordedEvents,
  Effect.map(OutboxStore, (store) =>
    RecordedEvents.of({
      list: (tenantId) => Effect.map(Ref.get(store), (all) => all.filter((e) => e.tenantId === tenantId))
    })
  )
)
