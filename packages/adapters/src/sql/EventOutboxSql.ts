import { Clock } from "@cisbook/core/ports/Clock"
import { EventOutbox } from "@cisbook/core/ports/EventOutbox"
import { IdGenerator } from "@cisbook/core/ports/IdGenerator"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"

/**
 * Inserts the events with the caller's connection, so they commit or roll back with the
 * caller's transaction. `data` goes as JSON text, which PostgreSQL casts to the jsonb column
 * (node-postgres would turn a bare array into a PostgreSQL array literal).
 */
export const EventOutboxSql = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    const clock = yield* Clock
    return EventOutbox.of({
      record: (tenantId, events) =>
        Effect.gen(function* () {
          if (events.length === 0) return
          const occurredAt = yield* clock.now
          const rows = yield* Effect.forEach(events, ({ data, type }) =>
            Effect.map(ids.uuid, (id) => ({ tenantId, id, type, data: JSON.stringify(data ?? null), occurredAt }))
          )
          yield* sql`INSERT INTO events ${sql.insert(rows)}`
        }).pipe(Effect.orDie)
    })
  })
)
