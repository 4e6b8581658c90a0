import { EventType } from "@cisbook/core/events/Event"
import { TenantId, WebhookId } from "@cisbook/core/Ids"
import { WebhookRepo } from "@cisbook/core/webhooks/WebhookRepo"
import { Webhook } from "@cisbook/core/webhooks/Webhook"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Redacted, Schema } from "effect"

const WebhookRow = Schema.Struct({
  id: WebhookId,
  tenantId: TenantId,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  eventTypes: Schema.Array(EventType),
  enabled: Schema.Boolean,
  createdAt: Schema.DateFromSelf
})

const Key = Schema.Struct({ tenantId: Schema.String, id: Schema.String })

const columns = "id, tenant_id, url, description, event_types, enabled, created_at"

export const WebhookRepoSql = Layer.effect(
  WebhookRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const find = SqlSchema.findOne({
      Request: Key,
      Result: WebhookRow,
      execute: ({ id, tenantId }) =>
        sql`SELECT ${sql.literal(columns)} FROM webhooks WHERE tenant_id = ${tenantId} AND id = ${id}`
    })
    const list = SqlSchema.findAll({
      Request: Schema.String,
      Result: WebhookRow,
      execute: (tenantId) =>
        sql`SELECT ${sql.literal(columns)} FROM webhooks WHERE tenant_id = ${tenantId} ORDER BY created_at, id`
    })
    const toWebhook = (row: typeof WebhookRow.Type) => new Webhook(row, true)
    const changed = (rows: ReadonlyArray<unknown>) => rows.length > 0

    return WebhookRepo.of({
      insert: (webhook, secret) =>
        sql`INSERT INTO webhooks ${sql.insert({
          tenantId: webhook.tenantId,
          id: webhook.id,
          url: webhook.url,
          description: webhook.description,
          eventTypes: [...webhook.eventTypes],
          enabled: webhook.enabled,
          secret: Redacted.value(secret),
          createdAt: webhook.createdAt
        })}`.pipe(Effect.asVoid, Effect.orDie),
      find: (tenantId, id) => find({ tenantId, id }).pipe(Effect.map(Option.map(toWebhook)), Effect.orDie),
      list: (tenantId) =>
        list(tenantId).pipe(
          Effect.map((rows) => rows.map(toWebhook)),
          Effect.orDie
        ),
      update: (webhook) =>
        sql`UPDATE webhooks SET ${sql.update({
          url: webhook.url,
          description: webhook.description,
          eventTypes: [...webhook.eventTypes],
          enabled: webhook.enabled
        })}, failing_since = CASE WHEN enabled THEN failing_since END
        WHERE tenant_id = ${webhook.tenantId} AND id = ${webhook.id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (tenantId, id) =>
        sql`DELETE FROM webhooks WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`.pipe(
          Effect.map(changed),
          Effect.orDie
        ),
      setSecret: (tenantId, id, secret, previousUntil) =>
        sql`
          UPDATE webhooks
          SET secret = ${Redacted.value(secret)}, previous_secret = secret, previous_secret_until = ${previousUntil}
          WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`.pipe(Effect.map(changed), Effect.orDie)
    })
  })
)
