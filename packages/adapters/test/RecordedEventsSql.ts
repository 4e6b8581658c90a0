import { EventType } from "@cisbook/core/events/Event"
import { TenantId } from "@cisbook/core/Ids"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"

const EventRow = Schema.Struct({
  id: Schema.String,
  tenantId: TenantId,
  type: EventType,
  data: Schema.Unknown,
  occurredAt: Schema.DateFromSelf
})

/** The events table read straight, for tests. */
export const RecordedEventsSql = Layer.effect(
  RecordedEvents,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const list = SqlSchema.findAll({
      Request: Schema.String,
      Result: EventRow,
      execute: (tenantId) => sql`
        SELECT id, tenant_id, type, data, occurred_at FROM events
        WHERE tenant_id = ${tenantId}
        ORDER BY occurred_at, seq`
    })
    return RecordedEvents.of({ list: (tenantId) => Effect.orDie(list(tenantId)) })
  })
)
