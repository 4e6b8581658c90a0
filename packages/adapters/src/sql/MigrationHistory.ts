import { Migrator, SqlClient } from "@effect/sql"
import { Effect } from "effect"

export type MigrationRow = readonly [id: number, name: string]

const label = ([id, name]: MigrationRow) => `${String(id).padStart(4, "0")}_${name}`

/**
 * What keeps the applied migrations from being brought up to date, if anything. The migrator
 * runs only the migrations above the highest one applied, so one below it that never ran
 * (migrations that landed out of order) would be skipped for good; and an applied id under
 * another name means that the schema is not the one the code knows.
 */
export const historyFault = (
  applied: ReadonlyArray<MigrationRow>,
  known: ReadonlyArray<MigrationRow>
): string | undefined => {
  const appliedNames = new Map(applied)
  const highest = Math.max(0, ...applied.map(([id]) => id))
  const skipped = known.filter(([id]) => id < highest && !appliedNames.has(id))
  const renamed = known.filter(([id, name]) => appliedNames.has(id) && appliedNames.get(id) !== name)
  const top = label(applied.find(([id]) => id === highest) ?? [highest, "?"])
  const faults = [
    ...(skipped.length === 0
      ? []
      : skipped.length === 1
        ? [`migration ${label(skipped[0]!)} was never applied, but ${top} was, so migrating would skip it`]
        : [
            `migrations ${skipped.map(label).join(", ")} were never applied, but ${top} was, so migrating would skip them`
          ]),
    ...renamed.map(
      ([id, name]) =>
        `migration ${id} was applied as ${label([id, appliedNames.get(id) ?? ""])}, not as ${label([id, name])}`
    )
  ]
  return faults.length === 0
    ? undefined
    : `The database's migrations do not match this version of cisbook: ${faults.join("; ")}. ` +
        "Bring the schema in line by hand (apply what is missing, in order, and record it in effect_sql_migrations), " +
        "or restore a backup; cisbook will not start on it as it is."
}

/**
 * The database's applied migrations; fails with their {@link historyFault}, if any. A fresh
 * database has none.
 */
export const checkMigrationHistory = (known: ReadonlyArray<MigrationRow>, table = "effect_sql_migrations") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [exists] = yield* sql<{ readonly found: string | null }>`SELECT to_regclass(${table})::text AS found`
    if (exists?.found == null) return []
    const rows = yield* sql<{ readonly migrationId: number; readonly name: string }>`
      SELECT migration_id, name FROM ${sql(table)} ORDER BY migration_id`
    const applied = rows.map((row): MigrationRow => [row.migrationId, row.name])
    const fault = historyFault(applied, known)
    if (fault !== undefined) return yield* new Migrator.MigrationError({ reason: "bad-state", message: fault })
    return applied
  })

/** Whether every migration of `known` is among `applied` (then there is nothing to run). */
export const isCurrent = (applied: ReadonlyArray<MigrationRow>, known: ReadonlyArray<MigrationRow>) => {
  const ids = new Set(applied.map(([id]) => id))
  return known.every(([id]) => ids.has(id))
}
