import { StorageHealth, type StorageState } from "@cisbook/core/system/StorageHealth"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer } from "effect"
import { KNOWN_MIGRATIONS } from "./Migrations.js"

/** The migrator's table (@effect/sql's default), one row a migration that ran. */
const MIGRATIONS_TABLE = "effect_sql_migrations"

/** Longer than a healthy database takes to answer, shorter than a load balancer's check waits. */
const ANSWER_WITHIN = Duration.seconds(2)

const UNDEFINED_TABLE = "42P01"

const known = Object.keys(KNOWN_MIGRATIONS).map((key) => ({ key, id: Number(key.slice(0, 4)) }))

const sqlState = (error: { readonly cause?: unknown }) =>
  (error.cause as { readonly code?: unknown } | null | undefined)?.code

/** Ready when the database answers in time and has run every migration this version knows. */
export const StorageHealthSql = Layer.effect(
  StorageHealth,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const applied = sql<{ readonly migrationId: number }>`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)}`.pipe(
      Effect.map((rows) => new Set(rows.map((row) => Number(row.migrationId)))),
      // Not even the migrator's table: nothing has run.
      Effect.catchIf(
        (error) => sqlState(error) === UNDEFINED_TABLE,
        () => Effect.succeed(new Set<number>())
      )
    )
    const check: Effect.Effect<StorageState> = applied.pipe(
      Effect.map((ids): StorageState => {
        const missing = known.filter(({ id }) => !ids.has(id)).map(({ key }) => key)
        return missing.length === 0 ? { _tag: "Ready" } : { _tag: "SchemaBehind", missing }
      }),
      Effect.timeoutFail({
        duration: ANSWER_WITHIN,
        onTimeout: () => new Error(`no answer within ${Duration.format(ANSWER_WITHIN)}`)
      }),
      Effect.catchAll((error) => Effect.succeed<StorageState>({ _tag: "Unreachable", reason: error.message })),
      Effect.catchAllDefect((defect) => Effect.succeed<StorageState>({ _tag: "Unreachable", reason: String(defect) }))
    )
    return StorageHealth.of({ check })
  })
)
