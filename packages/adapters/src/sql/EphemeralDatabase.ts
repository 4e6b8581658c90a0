import { randomBytes } from "node:crypto"
import { Reactivity } from "@effect/experimental"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { postgresDatabase } from "./Database.js"
import { MigrationsLive } from "./Migrations.js"
import { pgliteClient } from "./PgliteClient.js"

/**
 * A new database on the server at `adminUrl`, dropped when the scope closes; its URL. An
 * unreachable server fails: a test run that asked for PostgreSQL never quietly skips it.
 */
export const temporaryPostgresUrl = (adminUrl: Redacted.Redacted) =>
  Effect.gen(function* () {
    const admin = yield* PgClient.make({ url: adminUrl, maxConnections: 1 }).pipe(
      Effect.provide(Reactivity.layer),
      Effect.mapError(
        (cause) =>
          new SqlError({ cause, message: "The PostgreSQL server for temporary test databases cannot be reached" })
      )
    )
    const name = `cisbook_test_${randomBytes(6).toString("hex")}`
    yield* Effect.acquireRelease(admin`CREATE DATABASE ${admin(name)}`, () =>
      admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.orDie)
    )
    const url = new URL(Redacted.value(adminUrl))
    url.pathname = `/${name}`
    return Redacted.make(url.toString())
  })

/** A new database on the server at `adminUrl`, dropped when the layer's scope closes. */
export const temporaryPostgresDatabase = (adminUrl: Redacted.Redacted) =>
  Layer.unwrapScoped(Effect.map(temporaryPostgresUrl(adminUrl), postgresDatabase))

/**
 * A fresh, empty database: a temporary database on the server at CISBOOK_TEST_DATABASE_URL
 * when it is set, otherwise an in-memory PGlite (which takes a second or more to start, so
 * share one per test file).
 */
export const UnmigratedEphemeralDatabase = Layer.unwrapEffect(
  Effect.map(Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL")), (url) =>
    Option.match(url, { onNone: () => pgliteClient("memory://"), onSome: temporaryPostgresDatabase })
  )
)

/** A fresh, migrated database for tests and benchmarks. */
export const EphemeralDatabase = MigrationsLive.pipe(Layer.provideMerge(UnmigratedEphemeralDatabase))
