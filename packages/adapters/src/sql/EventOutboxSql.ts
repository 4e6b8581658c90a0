import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { insertEventsAndDeliveries } from "./EventRows.js"

/** Each event goes to every enabled webhook of its tenant that subscribes to its kind (no kinds: every kind). */
export const EventOutboxSql = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const insert = yield* insertEventsAndDeliveries
    const subscribed = sql`w.enabled AND (cardinality(w.event_types) = 0 OR e.type = ANY (w.event_types))`
    return EventOutbox.of({
      record: (tenantId, events) =>
        events.length === 0 ? Effect.void : Effect.asVoid(insert(tenantId, events, subscribed))
    })
  })
)
