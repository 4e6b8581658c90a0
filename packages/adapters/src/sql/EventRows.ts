import type { NewEvent } from "@cisbook/core/events/Event"
import { eventJsonText } from "@cisbook/core/events/EventJson"
import type { TenantId } from "@cisbook/core/Ids"
import { Clock } from "@cisbook/core/system/Clock"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { CopyIn } from "./CopyIn.js"

/** Fewer events go in one statement: one round trip, where COPY takes two. */
const COPY_FROM = 100

const EVENT_COLUMNS = ["tenantId", "id", "type", "data", "occurredAt"] as const

/**
 * Writes events and queues a delivery of each to the webhooks of its tenant that `picked` (a
 * condition on `w`, the webhook, and `e`, the event) picks, in one statement on the
 * caller's connection, so both commit or roll back with the caller's transaction. `data` goes
 * as JSON text, which PostgreSQL casts to the json column (node-postgres would turn a bare
 * array into a PostgreSQL array literal). Delivery ids are PostgreSQL's own random UUIDs, as
 * their number is known only there. Many events at once (an import's batch) are loaded with
 * COPY where the database has it: binding thousands of parameters, each event's JSON among them,
 * took PostgreSQL twice as long as loading the same rows.
 */
export const insertEventsAndDeliveries = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const copyIn = yield* Effect.serviceOption(CopyIn)
  const deliveryColumns = sql.literal(
    "tenant_id, id, webhook_id, event_id, event_type, status, attempts, automatic_attempts, next_attempt_at, created_at"
  )
  const deliveryOf = sql.literal(
    "e.tenant_id, gen_random_uuid(), w.id, e.id, e.type, 'Pending', 0, 0, e.occurred_at, e.occurred_at"
  )
  const ids = yield* IdGenerator
  const clock = yield* Clock
  return (tenantId: TenantId, events: ReadonlyArray<NewEvent>, picked: Statement.Fragment) =>
    Effect.gen(function* () {
      const occurredAt = yield* clock.now
      // Events of one change often share their data (contact.created and subcontractor.created).
      const json = new Map<unknown, string>()
      const jsonOf = (data: unknown) => {
        const known = json.get(data)
        if (known !== undefined) return known
        const text = eventJsonText(data)
        json.set(data, text)
        return text
      }
      const rows = yield* Effect.forEach(events, ({ data, type }) =>
        Effect.map(ids.uuid, (id) => ({ tenantId, id, type, data: jsonOf(data), occurredAt }))
      )
      if (Option.isSome(copyIn) && rows.length >= COPY_FROM) {
        // Loaded, then queued from what was loaded, in a transaction of their own when the caller has none.
        const copied = copyIn.value.rows(
          "events",
          EVENT_COLUMNS,
          rows.map((row) => EVENT_COLUMNS.map((column) => row[column]))
        )
        const queued = sql<{ readonly id: string }>`
          INSERT INTO webhook_deliveries (${deliveryColumns})
          SELECT ${deliveryOf}
          FROM events e JOIN webhooks w ON w.tenant_id = e.tenant_id
          WHERE e.tenant_id = ${tenantId} AND e.id = ANY(${rows.map((row) => row.id)}::uuid[]) AND ${picked}
          RETURNING id`
        return yield* sql.withTransaction(Effect.zipRight(copied, queued))
      }
      return yield* sql<{ readonly id: string }>`
        WITH e AS (INSERT INTO events ${sql.insert(rows)} RETURNING tenant_id, id, type, occurred_at)
        INSERT INTO webhook_deliveries (${deliveryColumns})
        SELECT ${deliveryOf}
        FROM e JOIN webhooks w ON w.tenant_id = e.tenant_id
        WHERE ${picked}
        RETURNING id`
    }).pipe(Effect.orDie)
})
