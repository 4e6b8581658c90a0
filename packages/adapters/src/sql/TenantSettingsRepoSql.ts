import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { TenantSettingsRepo } from "@cisbook/core/ports/TenantSettingsRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"

const encodeCisDetails = Schema.encodeSync(CisDetails)

/** The settings row is made by the first setting written; each setting upserts its own column. */
export const TenantSettingsRepoSql = Layer.effect(
  TenantSettingsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const findCisDetails = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ cisDetails: Schema.NullOr(CisDetails) }),
      execute: (tenantId) => sql`SELECT cis_details FROM tenant_settings WHERE tenant_id = ${tenantId}`
    })
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
          ON CONFLICT (tenant_id) DO UPDATE SET cis_details = excluded.cis_details`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
