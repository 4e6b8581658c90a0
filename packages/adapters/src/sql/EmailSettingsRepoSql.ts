import { Email } from "@cisbook/core/Email"
import { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import { EmailTemplateType } from "@cisbook/core/mail/EmailTemplateType"
import { EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"

const encodeSettings = Schema.encodeSync(EmailSettings)

const TemplateRow = Schema.Struct({ type: EmailTemplateType, subject: Schema.String, body: Schema.String })

const ContextRow = Schema.Struct({
  tenantName: Schema.String,
  tenantEmail: Schema.NullOr(Email),
  emailSettings: Schema.NullOr(EmailSettings),
  subject: Schema.NullOr(Schema.String),
  body: Schema.NullOr(Schema.String)
})

export const EmailSettingsRepoSql = Layer.effect(
  EmailSettingsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const findSettings = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ emailSettings: Schema.NullOr(EmailSettings) }),
      execute: (tenantId) => sql`SELECT email_settings FROM tenant_settings WHERE tenant_id = ${tenantId}`
    })
    const listTemplates = SqlSchema.findAll({
      Request: Schema.String,
      Result: TemplateRow,
      execute: (tenantId) => sql`SELECT type, subject, body FROM email_templates WHERE tenant_id = ${tenantId}`
    })
    const findContext = SqlSchema.single({
      Request: Schema.Struct({ tenantId: Schema.String, type: Schema.String }),
      Result: ContextRow,
      execute: ({ tenantId, type }) => sql`
        SELECT t.name AS tenant_name, t.email AS tenant_email, s.email_settings, e.subject, e.body
        FROM tenants t
        LEFT JOIN tenant_settings s ON s.tenant_id = t.id
        LEFT JOIN email_templates e ON e.tenant_id = t.id AND e.type = ${type}
        WHERE t.id = ${tenantId}`
    })
    return EmailSettingsRepo.of({
      getSettings: (tenantId) =>
        findSettings(tenantId).pipe(
          Effect.map(Option.flatMap(({ emailSettings }) => Option.fromNullable(emailSettings))),
          Effect.orDie
        ),
      // The jsonb value goes as JSON text (see EventOutboxSql).
      setSettings: (tenantId, settings) =>
        sql`
          INSERT INTO tenant_settings ${sql.insert({ tenantId, emailSettings: JSON.stringify(encodeSettings(settings)) })}
          ON CONFLICT (tenant_id) DO UPDATE SET email_settings = excluded.email_settings`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      listTemplates: (tenantId) => listTemplates(tenantId).pipe(Effect.orDie),
      saveTemplate: (tenantId, { body, subject, type }) =>
        sql`
          INSERT INTO email_templates ${sql.insert({ tenantId, type, subject, body })}
          ON CONFLICT (tenant_id, type) DO UPDATE SET subject = excluded.subject, body = excluded.body`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      deleteTemplate: (tenantId, type) =>
        sql`DELETE FROM email_templates WHERE tenant_id = ${tenantId} AND type = ${type}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      mailContext: (tenantId, type) =>
        findContext({ tenantId, type }).pipe(
          Effect.map((row) => ({
            tenantName: row.tenantName,
            tenantEmail: row.tenantEmail,
            signature: row.emailSettings?.signature ?? null,
            template:
              row.subject === null || row.body === null
                ? Option.none()
                : Option.some({ subject: row.subject, body: row.body })
          })),
          Effect.orDie
        )
    })
  })
)
