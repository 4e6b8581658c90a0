import { Clock } from "@cisbook/core/ports/Clock"
import { EventOutbox } from "@cisbook/core/ports/EventOutbox"
import { IdGenerator } from "@cisbook/core/ports/IdGenerator"
import { Effect, Layer, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"
import { type RecordedEvent, RecordedEvents } from "./RecordedEvents.js"

/** Every recorded event, oldest first; a journal cell, so a failed transaction drops its events. */
export class OutboxStore extends Effect.Service<OutboxStore>()("testkit/OutboxStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<RecordedEvent>>([]))
}) {}

export const EventOutboxMemory = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const store = yield* OutboxStore
    const ids = yield* IdGenerator
    const clock = yield* Clock
    return EventOutbox.of({
      record: (tenantId, events) =>
        Effect.gen(function* () {
          const occurredAt = yield* clock.now
          // Through JSON, as the jsonb column gives it back: a Date becomes a string, undefined null.
          const recorded = yield* Effect.forEach(events, ({ data, type }) =>
            Effect.map(ids.uuid, (id): RecordedEvent => ({
              id,
              tenantId,
              type,
              data: JSON.parse(JSON.stringify(data ?? null)),
              occurredAt
            }))
          )
          yield* Ref.update(store, (all) => [...all, ...recorded])
        })
    })
  })
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
