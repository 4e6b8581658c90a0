import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { TenantSettingsRepo } from "@cisbook/core/tenants/TenantSettingsRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"

const encodeCisDetails = Schema.encodeSync(CisDetails)

/** The settings row is made by the first setting written; each setting upserts its own columns. */
export const TenantSettingsRepoSql = Layer.effect(
  TenantSettingsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const findCisDetails = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ cisDetails: Schema.NullOr(CisDetails) }),
      execute: (tenantId) => sql`SELECT cis_details FROM tenant_settings WHERE tenant_id = ${tenantId}`
    })
    // Both references are set together (a check of the table holds it), so one null means none.
    const findCisScheme = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({
        employerReference: Schema.NullOr(Schema.String),
        accountsOfficeReference: Schema.NullOr(Schema.String)
      }),
      execute: (tenantId) =>
        sql`SELECT employer_reference, accounts_office_reference FROM tenant_settings WHERE tenant_id = ${tenantId}`
    })
    const findRegisteredFrom = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ registeredFrom: Schema.NullOr(Schema.String) }),
      execute: (tenantId) =>
        sql`SELECT to_char(registered_from, 'YYYY-MM-DD') AS registered_from FROM tenant_settings
            WHERE tenant_id = ${tenantId}`
    })
    const decodeCisScheme = Schema.decodeUnknown(CisScheme)
    return TenantSettingsRepo.of({
      getCisDetails: (tenantId) =>
        findCisDetails(tenantId).pipe(
          Effect.map(Option.flatMap(({ cisDetails }) => Option.fromNullable(cisDetails))),
          Effect.orDie
        ),
      // The jsonb value goes as JSON text (see EventOutboxSql).
      setCisDetails: (tenantId, details) =>
        sql`
          INSERT INTO tenant_settings ${sql.insert({ tenantId, cisDetails: JSON.stringify(encodeCisDetails(details)) })}
          ON CONFLICT (tenant_id) DO UPDATE SET cis_details = excluded.cis_details`.pipe(Effect.asVoid, Effect.orDie),
      getCisScheme: (tenantId) =>
        findCisScheme(tenantId).pipe(
          Effect.flatMap((found) =>
            Option.isSome(found) && found.value.employerReference !== null
              ? Effect.asSome(decodeCisScheme(found.value))
              : Effect.succeedNone
          ),
          Effect.orDie
        ),
      setCisScheme: (tenantId, scheme, registeredFrom) =>
        sql`
          INSERT INTO tenant_settings ${sql.insert({
            tenantId,
            employerReference: scheme.employerReference,
            accountsOfficeReference: scheme.accountsOfficeReference,
            registeredFrom
          })}
          ON CONFLICT (tenant_id) DO UPDATE SET employer_reference = excluded.employer_reference,
            accounts_office_reference = excluded.accounts_office_reference,
            registered_from = excluded.registered_from`.pipe(Effect.asVoid, Effect.orDie),
      getRegisteredFrom: (tenantId) =>
        findRegisteredFrom(tenantId).pipe(
          Effect.map(Option.flatMap(({ registeredFrom }) => Option.fromNullable(registeredFrom))),
          Effect.orDie
        )
    })
  })
)
