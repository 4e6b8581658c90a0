import { CredentialsStatus, Filer, SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsRepo } from "@cisbook/core/credentials/HmrcCredentialsRepo"
import type { TenantId } from "@cisbook/core/Ids"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { CredentialsCipher } from "../credentials/CredentialsCipher.js"

const Row = Schema.Struct({
  tenantId: Schema.String,
  gatewayUserId: Schema.String,
  passwordSealed: Schema.String,
  filer: Filer,
  status: CredentialsStatus,
  updatedAt: Schema.DateFromSelf
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))

/** The tenants' credentials, the password sealed (CredentialsCipher) and bound to its tenant. */
export const HmrcCredentialsRepoSql = Layer.effect(
  HmrcCredentialsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cipher = yield* CredentialsCipher

    const fromRow = (row: typeof Row.Type) => ({
      credentials: new SenderCredentials({
        gatewayUserId: row.gatewayUserId,
        password: cipher.open(row.passwordSealed, row.tenantId),
        filer: row.filer
      }),
      status: row.status,
      updatedAt: row.updatedAt
    })

    const findWith = (tenantId: TenantId, lock: boolean) =>
      sql`SELECT tenant_id, gateway_user_id, password_sealed, filer, status, updated_at FROM hmrc_credentials
          WHERE tenant_id = ${tenantId} ${sql.literal(lock ? "FOR UPDATE" : "")}`.pipe(
        Effect.flatMap(decodeRows),
        Effect.orDie,
        Effect.flatMap((rows) => (rows[0] === undefined ? Effect.succeedNone : opened(rows[0])))
      )

    /**
     * The stored credentials, opened; none, with an error logged, when no key this server has
     * opens them (a key rotated away too soon): nothing is sent for the tenant, as without any.
     */
    const opened = (row: typeof Row.Type) =>
      Effect.try(() => fromRow(row)).pipe(
        Effect.asSome,
        Effect.catchAll((error) =>
          Effect.logError("A tenant's HMRC password cannot be decrypted; nothing is sent for it").pipe(
            Effect.annotateLogs({ tenant: row.tenantId, reason: String(error.error) }),
            Effect.as(Option.none())
          )
        )
      )

    return HmrcCredentialsRepo.of({
      find: (tenantId) => findWith(tenantId, false),
      findForUpdate: (tenantId) => findWith(tenantId, true),
      set: (tenantId, credentials, at) =>
        sql`
          INSERT INTO hmrc_credentials ${sql.insert({
            tenantId,
            gatewayUserId: credentials.gatewayUserId,
            passwordSealed: cipher.seal(credentials.password, tenantId),
            filer: credentials.filer,
            status: "Unchecked",
            updatedAt: at
          })}
          ON CONFLICT (tenant_id) DO UPDATE SET gateway_user_id = excluded.gateway_user_id,
            password_sealed = excluded.password_sealed, filer = excluded.filer, status = excluded.status,
            updated_at = excluded.updated_at`.pipe(Effect.asVoid, Effect.orDie),
      remove: (tenantId) =>
        sql`DELETE FROM hmrc_credentials WHERE tenant_id = ${tenantId} RETURNING tenant_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      recordStatus: (tenantId, setAt, status) =>
        sql`UPDATE hmrc_credentials SET status = ${status}
            WHERE tenant_id = ${tenantId} AND updated_at = ${setAt} RETURNING tenant_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      // One tenant at a time; a row replaced meanwhile (a PUT, sealed with the current key) is left as it is.
      reseal: () =>
        Effect.gen(function* () {
          const tenants = yield* sql<{ tenantId: string; passwordSealed: string }>`
            SELECT tenant_id, password_sealed FROM hmrc_credentials ORDER BY tenant_id`
          let resealed = 0
          for (const { passwordSealed, tenantId } of tenants) {
            if (cipher.isCurrent(passwordSealed)) continue
            const opened = yield* Effect.option(Effect.try(() => cipher.open(passwordSealed, tenantId)))
            if (Option.isNone(opened)) {
              yield* Effect.logError(
                "A tenant's HMRC password cannot be decrypted with either key; left as it is"
              ).pipe(Effect.annotateLogs({ tenant: tenantId }))
              continue
            }
            const password = opened.value
            const updated = yield* sql`
              UPDATE hmrc_credentials SET password_sealed = ${cipher.seal(password, tenantId)}
              WHERE tenant_id = ${tenantId} AND password_sealed = ${passwordSealed} RETURNING tenant_id`
            resealed += updated.length
          }
          return resealed
        }).pipe(Effect.orDie)
    })
  })
)
