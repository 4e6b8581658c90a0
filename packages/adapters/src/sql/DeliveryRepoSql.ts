import { EventType } from "@cisbook/core/events/Event"
import { DeliveryId, TenantId, WebhookId } from "@cisbook/core/Ids"
import { type ClaimedDelivery, DeliveryRepo, type RecordedAttempt } from "@cisbook/core/webhooks/DeliveryRepo"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from "@cisbook/core/webhooks/WebhookDelivery"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Order, Redacted, Schema } from "effect"
import { insertEventsAndDeliveries } from "./EventRows.js"
import { leaseClaim } from "./LeaseClaim.js"

const Key = Schema.Struct({ tenantId: Schema.String, id: Schema.String })

const DeliveryRow = Schema.Struct({
  id: DeliveryId,
  tenantId: TenantId,
  webhookId: WebhookId,
  eventId: Schema.String,
  eventType: EventType,
  status: DeliveryStatus,
  attempts: Schema.Number,
  createdAt: Schema.DateFromSelf,
  lastAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  responseStatus: Schema.NullOr(Schema.Number),
  responseBody: Schema.NullOr(Schema.String)
})

const AttemptRow = Schema.Struct({
  at: Schema.DateFromSelf,
  responseStatus: Schema.NullOr(Schema.Number),
  responseBody: Schema.NullOr(Schema.String),
  durationMs: Schema.Number,
  error: Schema.NullOr(Schema.String)
})

const ClaimedRow = Schema.Struct({
  tenantId: TenantId,
  id: DeliveryId,
  eventId: Schema.String,
  eventType: EventType,
  eventData: Schema.Unknown,
  occurredAt: Schema.DateFromSelf,
  webhookId: WebhookId,
  url: Schema.String,
  failingSince: Schema.NullOr(Schema.DateFromSelf),
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  status: DeliveryStatus,
  attempts: Schema.Number,
  automaticAttempts: Schema.Number,
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  retryRequestedAt: Schema.NullOr(Schema.DateFromSelf)
})
/** A claimed row as the claim statement reads it, from columns only the service writes: not decoded again (it runs for every batch). */
type ClaimedRow = typeof ClaimedRow.Type

/** An attempt and the schedule it leaves, as a row of the record statement (snake_case, as jsonb_to_recordset reads it). */
const attemptRow = (r: RecordedAttempt) => ({
  tenant_id: r.tenantId,
  id: r.id,
  lease_token: r.leaseToken,
  status: r.schedule.status,
  attempts: r.schedule.attempts,
  automatic_attempts: r.schedule.automaticAttempts,
  next_attempt_at: r.schedule.nextAttemptAt,
  retry_requested_at: r.schedule.retryRequestedAt,
  at: r.attempt.at,
  response_status: r.attempt.responseStatus,
  response_body: r.attempt.responseBody,
  duration_ms: r.attempt.durationMs,
  error: r.attempt.error
})

/** A delivery as the API shows it: its latest attempt's answer, and when it is due next. */
const deliveryView = `
  SELECT d.id, d.tenant_id, d.webhook_id, d.event_id, d.event_type, d.status, d.attempts, d.created_at,
    coalesce(d.retry_requested_at, d.next_attempt_at) AS next_attempt_at,
    last.at AS last_attempt_at, last.response_status, last.response_body
  FROM webhook_deliveries d
  LEFT JOIN LATERAL (
    SELECT at, response_status, response_body FROM webhook_delivery_attempts
    WHERE tenant_id = d.tenant_id AND delivery_id = d.id
    ORDER BY attempt DESC LIMIT 1
  ) last ON true`

/**
 * The verdicts that change something, of attempts ordered by webhook and time: a verdict of the
 * same kind as the one before it for the webhook changes nothing after it (answering again
 * leaves failing_since cleared; failing again keeps the first failure's time; a second disable
 * finds the webhook disabled), so a busy webhook's batch costs one statement, not one an attempt.
 */
const withoutRepeats = (inOrder: ReadonlyArray<RecordedAttempt>): ReadonlyArray<RecordedAttempt> =>
  inOrder.filter((attempt, i) => {
    const before = inOrder[i - 1]
    return (
      before === undefined ||
      before.tenantId !== attempt.tenantId ||
      before.webhookId !== attempt.webhookId ||
      before.endpoint._tag !== attempt.endpoint._tag
    )
  })

export const DeliveryRepoSql = Layer.effect(
  DeliveryRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    const insert = yield* insertEventsAndDeliveries
    const leases = leaseClaim(sql, {
      table: "webhook_deliveries",
      alias: "d",
      key: ["tenant_id", "id"],
      token: true,
      join: sql`JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id`,
      due: (now) => sql`coalesce(d.retry_requested_at, d.next_attempt_at) <= ${now} AND w.enabled`,
      order: "coalesce(d.retry_requested_at, d.next_attempt_at)",
      from: {
        tables: "events e, webhooks w",
        where: sql`e.tenant_id = d.tenant_id AND e.id = d.event_id AND w.tenant_id = d.tenant_id AND w.id = d.webhook_id`
      },
      returning: (now) => sql`d.tenant_id, d.id, d.event_id, d.event_type, e.data AS event_data, e.occurred_at,
        w.id AS webhook_id, w.url, w.failing_since, w.secret,
        CASE WHEN w.previous_secret_until > ${now} THEN w.previous_secret END AS previous_secret,
        d.status, d.attempts, d.automatic_attempts, d.next_attempt_at, d.retry_requested_at`
    })

    const findDelivery = SqlSchema.findOne({
      Request: Key,
      Result: DeliveryRow,
      execute: ({ id, tenantId }) => sql`${sql.literal(deliveryView)} WHERE d.tenant_id = ${tenantId} AND d.id = ${id}`
    })
    const attemptLog = SqlSchema.findAll({
      Request: Key,
      Result: AttemptRow,
      execute: ({ id, tenantId }) => sql`
        SELECT at, response_status, response_body, duration_ms, error FROM webhook_delivery_attempts
        WHERE tenant_id = ${tenantId} AND delivery_id = ${id}
        ORDER BY attempt`
    })
    const toDelivery = (row: typeof DeliveryRow.Type) => new WebhookDelivery(row, true)

    // One statement for a batch: the attempts as a JSON array of rows. A delivery whose lease
    // is no longer the attempt's is left alone, and its attempt dropped.
    const recordAll = (attempts: ReadonlyArray<RecordedAttempt>) => sql<{
      readonly tenantId: string
      readonly deliveryId: string
    }>`
      WITH v AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(attempts.map(attemptRow))}::jsonb) AS v(
          tenant_id uuid, id uuid, lease_token uuid, status text, attempts integer, automatic_attempts integer,
          next_attempt_at timestamptz, retry_requested_at timestamptz,
          at timestamptz, response_status integer, response_body text, duration_ms integer, error text)
      ),
      updated AS (
        UPDATE webhook_deliveries d SET
          status = v.status,
          attempts = v.attempts,
          automatic_attempts = v.automatic_attempts,
          next_attempt_at = v.next_attempt_at,
          retry_requested_at = v.retry_requested_at,
          ${leases.release}
        FROM v
        WHERE d.tenant_id = v.tenant_id AND d.id = v.id AND d.lease_token = v.lease_token
        RETURNING d.tenant_id, d.id
      )
      INSERT INTO webhook_delivery_attempts
        (tenant_id, delivery_id, attempt, at, response_status, response_body, duration_ms, error)
      SELECT v.tenant_id, v.id, v.attempts, v.at, v.response_status, v.response_body, v.duration_ms, v.error
      FROM updated JOIN v ON v.tenant_id = updated.tenant_id AND v.id = updated.id
      RETURNING tenant_id, delivery_id`

    /** Applies what an attempt says about its webhook; true when it disabled it just now. */
    const applyVerdict = ({ endpoint, tenantId, webhookId }: RecordedAttempt) => {
      const webhook = sql`tenant_id = ${tenantId} AND id = ${webhookId}`
      switch (endpoint._tag) {
        case "Answering":
          // Mostly it was answering already: nothing to write then.
          return sql`UPDATE webhooks SET failing_since = NULL WHERE ${webhook} AND failing_since IS NOT NULL`.pipe(
            Effect.as(false)
          )
        case "Failing":
          return sql`UPDATE webhooks SET failing_since = coalesce(failing_since, ${endpoint.since}) WHERE ${webhook}`.pipe(
            Effect.as(false)
          )
        case "Disable":
          return sql`
            UPDATE webhooks SET enabled = false, failing_since = NULL WHERE ${webhook} AND enabled
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0))
      }
    }

    const record = (attempts: ReadonlyArray<RecordedAttempt>) =>
      Effect.gen(function* () {
        const kept = yield* recordAll(attempts)
        const keptKeys = new Set(kept.map((k) => `${k.tenantId}/${k.deliveryId}`))
        const isKept = (a: RecordedAttempt) => keptKeys.has(`${a.tenantId}/${a.id}`)
        // Each webhook's attempts oldest first; the webhooks always in one order, so that two
        // dispatchers recording at once lock their rows in the same order (no deadlock).
        const inOrder = attempts
          .filter(isKept)
          .sort(
            (a, b) =>
              Order.string(`${a.tenantId}/${a.webhookId}`, `${b.tenantId}/${b.webhookId}`) ||
              a.attempt.at.getTime() - b.attempt.at.getTime()
          )
        const verdicts = withoutRepeats(inOrder)
        // One after the other (Effect.filter would run them in reverse).
        const disabled = yield* Effect.forEach(verdicts, applyVerdict)
        return verdicts.filter((_, i) => disabled[i])
      }).pipe(sql.withTransaction)

    return DeliveryRepo.of({
      queueFor: (tenantId, webhookId, event) =>
        insert(tenantId, [event], sql`w.id = ${webhookId}`).pipe(
          Effect.flatMap(([queued]) =>
            queued === undefined
              ? Effect.die(`The tenant ${tenantId} has no webhook ${webhookId}`)
              : Effect.succeed(DeliveryId.make(queued.id))
          )
        ),
      find: (tenantId, id) =>
        Effect.gen(function* () {
          const found = yield* findDelivery({ tenantId, id })
          if (Option.isNone(found)) return Option.none()
          const log = yield* attemptLog({ tenantId, id })
          return Option.some({
            delivery: toDelivery(found.value),
            attemptLog: log.map((a) => new DeliveryAttempt(a, true))
          })
        }).pipe(Effect.orDie),
      list: (tenantId, query) =>
        Effect.gen(function* () {
          const filters = sql.and([
            sql`d.tenant_id = ${tenantId}`,
            ...(query.webhookId === null ? [] : [sql`d.webhook_id = ${query.webhookId}`]),
            ...(query.status === null ? [] : [sql`d.status = ${query.status}`])
          ])
          const [counted] = yield* sql<{ readonly total: number }>`
            SELECT count(*) AS total FROM webhook_deliveries d WHERE ${filters}`
          const rows = yield* sql`
            ${sql.literal(deliveryView)} WHERE ${filters}
            ORDER BY d.seq DESC LIMIT ${query.limit} OFFSET ${query.offset}`
          const items = yield* Schema.decodeUnknown(Schema.Array(DeliveryRow))(rows)
          return { items: items.map(toDelivery), totalCount: counted?.total ?? 0 }
        }).pipe(Effect.orDie),
      requestRetry: (tenantId, id, at) =>
        sql`
          UPDATE webhook_deliveries
          SET status = 'Pending', retry_requested_at = ${at}, ${leases.release}
          WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'Failed'
            AND (leased_until IS NULL OR leased_until <= ${at})
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const rows = yield* leases.claim({ now, leaseUntil, limit, token })
          const claimed = rows as unknown as ReadonlyArray<ClaimedRow>
          return claimed.map((row): ClaimedDelivery => ({
            tenantId: row.tenantId,
            id: row.id,
            eventId: row.eventId,
            eventType: row.eventType,
            eventData: row.eventData,
            occurredAt: row.occurredAt,
            endpoint: { webhookId: row.webhookId, url: row.url, failingSince: row.failingSince },
            secrets: [row.secret, ...(row.previousSecret === null ? [] : [row.previousSecret])].map((secret) =>
              Redacted.make(secret)
            ),
            schedule: {
              status: row.status,
              attempts: row.attempts,
              automaticAttempts: row.automaticAttempts,
              nextAttemptAt: row.nextAttemptAt,
              retryRequestedAt: row.retryRequestedAt
            },
            leaseToken: token
          }))
        }).pipe(Effect.orDie),
      record: (attempts) => (attempts.length === 0 ? Effect.succeed([]) : record(attempts).pipe(Effect.orDie))
    })
  })
)
