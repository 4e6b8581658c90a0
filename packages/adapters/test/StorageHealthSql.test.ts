import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { KNOWN_MIGRATIONS, migrate } from "@cisbook/adapters/sql/Migrations"
import { StorageHealthSql } from "@cisbook/adapters/sql/StorageHealthSql"
import { StorageHealth } from "@cisbook/core/system/StorageHealth"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as net from "node:net"
import * as Pg from "pg"

layer(StorageHealthSql.pipe(Layer.provideMerge(UnmigratedEphemeralDatabase)))("StorageHealthSql", (it) => {
  it.effect("is behind on a database never migrated, behind by the one missing, then ready", () =>
    Effect.gen(function* () {
      const health = yield* StorageHealth
      const sql = yield* SqlClient.SqlClient
      expect(yield* health.check).toEqual({ _tag: "SchemaBehind", missing: Object.keys(KNOWN_MIGRATIONS) })
      yield* migrate
      expect(yield* health.check).toEqual({ _tag: "Ready" })
      yield* sql`DELETE FROM effect_sql_migrations WHERE migration_id = 3`
      expect(yield* health.check).toEqual({ _tag: "SchemaBehind", missing: ["0003_contacts"] })
    })
  )
})

/** A port nothing listens on: connecting is refused at once. */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo
        probe.close(() => resolve(port))
      })
    })
)

it.effect("a database that does not answer is unreachable", () =>
  Effect.gen(function* () {
    const port = yield* closedPort
    const pool = PgClient.layerFromPool({
      acquire: Effect.acquireRelease(
        Effect.sync(() => new Pg.Pool({ host: "127.0.0.1", port, user: "postgres", max: 1 })),
        (pool) => Effect.promise(() => pool.end())
      )
    })
    const state = yield* Effect.flatMap(StorageHealth, (health) => health.check).pipe(
      Effect.provide(StorageHealthSql.pipe(Layer.provide(pool)))
    )
    expect(state).toMatchObject({ _tag: "Unreachable" })
  })
)
