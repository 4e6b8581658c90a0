import { ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEvent"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type ClaimedProviderEvent, ProviderEventInbox } from "@cisbook/core/billing/providerevents/ProviderEventInbox"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { leaseClaim } from "./LeaseClaim.js"

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const EventRow = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.DateFromSelf,
  resourceType: Schema.String,
  action: Schema.String,
  resourceId: Schema.NullOr(Schema.String),
  links: Schema.Record({ key: Schema.String, value: Schema.String }),
  details: JsonObject,
  metadata: JsonObject,
  attempts: Schema.Number
})
const decodeEvents = Schema.decodeUnknown(Schema.Array(EventRow))

const SummaryRow = Schema.Struct({
  id: Schema.String,
  resourceType: Schema.String,
  action: Schema.String,
  resourceId: Schema.NullOr(Schema.String),
  receivedAt: Schema.DateFromSelf,
  handled: ProviderEventHandling
})
const decodeSummaries = Schema.decodeUnknown(Schema.Array(SummaryRow))

/** The claim of the one worker shape: due pending rows, each leased to one claimant (SKIP LOCKED). */
export const ProviderEventInboxSql = Layer.effect(
  ProviderEventInbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    const leases = leaseClaim(sql, {
      table: "provider_events",
      alias: "e",
      key: ["id"],
      token: true,
      due: (now) => sql`e.handled = 'pending' AND e.next_attempt_at <= ${now}`,
      order: "e.next_attempt_at, e.created_at",
      returning: () =>
        sql`e.id, e.created_at, e.resource_type, e.action, e.resource_id, e.links, e.details, e.metadata, e.attempts`
    })

    return ProviderEventInbox.of({
      add: (batch, receivedAt) =>
        batch.events.length === 0
          ? Effect.succeed(0)
          : sql`
              INSERT INTO provider_events (id, webhook_id, created_at, resource_type, action, resource_id, links,
                details, metadata, received_at, next_attempt_at)
              SELECT v.id, ${batch.notificationId}, v.created_at, v.resource_type, v.action, v.resource_id, v.links,
                v.details, v.metadata, ${receivedAt}, ${receivedAt}
              FROM jsonb_to_recordset(${JSON.stringify(
                batch.events.map((e) => ({
                  id: e.id,
                  created_at: e.createdAt.toISOString(),
                  resource_type: e.resourceType,
                  action: e.action,
                  resource_id: e.resourceId,
                  links: e.links,
                  details: e.details,
                  metadata: e.metadata
                }))
              )}::jsonb) AS v(id text, created_at timestamptz, resource_type text, action text, resource_id text,
                links jsonb, details jsonb, metadata jsonb)
              ON CONFLICT (id) DO NOTHING
              RETURNING id`.pipe(
              Effect.map((rows) => rows.length),
              Effect.orDie
            ),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const rows = yield* leases.claim({ now, leaseUntil, limit, token }).pipe(Effect.flatMap(decodeEvents))
          return rows
            .map(({ attempts, ...event }): ClaimedProviderEvent => ({ event, attempts, leaseToken: token }))
            .sort((a, b) => a.event.createdAt.getTime() - b.event.createdAt.getTime())
        }).pipe(Effect.orDie),
      settle: (id, leaseToken, outcome, at) =>
        sql`
          UPDATE provider_events
          SET handled = ${outcome}, handled_at = ${at}, attempts = attempts + 1, ${leases.release}
          WHERE id = ${id} AND lease_token = ${leaseToken} AND handled = 'pending'
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      postpone: (postponed) =>
        postponed.length === 0
          ? Effect.void
          : sql`
              UPDATE provider_events e
              SET next_attempt_at = v.retry_at, attempts = e.attempts + 1, ${leases.release}
              FROM jsonb_to_recordset(${JSON.stringify(
                postponed.map((p) => ({ id: p.id, lease_token: p.leaseToken, retry_at: p.retryAt.toISOString() }))
              )}::jsonb) AS v(id text, lease_token uuid, retry_at timestamptz)
              WHERE e.id = v.id AND e.lease_token = v.lease_token AND e.handled = 'pending'`.pipe(
              Effect.asVoid,
              Effect.orDie
            ),
      list: (limit) =>
        sql`
          SELECT id, resource_type, action, resource_id, received_at, handled
          FROM provider_events ORDER BY seq DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeSummaries), Effect.orDie)
    })
  })
)
