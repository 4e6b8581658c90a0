import type { NewEvent } from "@cisbook/core/events/Event"
import type { TenantId } from "@cisbook/core/Ids"
import { Clock } from "@cisbook/core/system/Clock"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect } from "effect"

/**
 * Writes events and queues a delivery of each to the webhooks of its tenant that `picked` (a
 * condition on `w`, the webhook, and `e`, the event) picks, in one statement on the
 * caller's connection, so both commit or roll back with the caller's transaction. `data` goes
 * as JSON text, which PostgreSQL casts to the jsonb column (node-postgres would turn a bare
 * array into a PostgreSQL array literal). Delivery ids are PostgreSQL's own random UUIDs, as
 * their number is known only there.
 */
export const insertEventsAndDeliveries = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
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
        const text = JSON.stringify(data ?? null)
        json.set(data, text)
        return text
      }
      const rows = yield* Effect.forEach(events, ({ data, type }) =>
        Effect.map(ids.uuid, (id) => ({ tenantId, id, type, data: jsonOf(data), occurredAt }))
      )
      return yield* sql<{ readonly id: string }>`
        WITH e AS (INSERT INTO events ${sql.insert(rows)} RETURNING tenant_id, id, type, occurred_at)
        INSERT INTO webhook_deliveries
          (tenant_id, id, webhook_id, event_id, event_type, status, attempts, automatic_attempts, next_attempt_at, created_at)
        SELECT e.tenant_id, gen_random_uuid(), w.id, e.id, e.type, 'Pending', 0, 0, e.occurred_at, e.occurred_at
        FROM e JOIN webhooks w ON w.tenant_id = e.tenant_id
        WHERE ${picked}
        RETURNING id`
    }).pipe(Effect.orDie)
})
