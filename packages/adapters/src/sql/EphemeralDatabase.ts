import { randomBytes } from "node:crypto"
import { readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Reactivity } from "@effect/experimental"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Config, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { postgresDatabase } from "./Database.js"
import { migrate, MigrationsLive } from "./Migrations.js"
import { openPglite, pgliteClient, pgliteClientOver } from "./PgliteClient.js"

/** A connection to the PostgreSQL server at `adminUrl`, as its administrator, for the scope. */
const adminOf = (adminUrl: Redacted.Redacted) =>
  PgClient.make({ url: adminUrl, maxConnections: 1 }).pipe(
    Effect.provide(Reactivity.layer),
    Effect.mapError(
      (cause) =>
        new SqlError({ cause, message: "The PostgreSQL server for temporary test databases cannot be reached" })
    )
  )

/** The URL of database `name` on the server at `adminUrl`. */
const databaseUrl = (adminUrl: Redacted.Redacted, name: string) => {
  const url = new URL(Redacted.value(adminUrl))
  url.pathname = `/${name}`
  return Redacted.make(url.toString())
}

/**
 * A new database on the server at `adminUrl`, dropped when the scope closes; its URL. With
 * `template`, a copy of that database (CREATE DATABASE ... TEMPLATE), otherwise empty. An
 * unreachable server fails: a test run that asked for PostgreSQL never quietly skips it.
 */
export const temporaryPostgresUrl = (adminUrl: Redacted.Redacted, template?: string) =>
  Effect.gen(function* () {
    const admin = yield* adminOf(adminUrl)
    const name = `cisbook_test_${randomBytes(6).toString("hex")}`
    const create =
      template === undefined
        ? admin`CREATE DATABASE ${admin(name)}`
        : admin`CREATE DATABASE ${admin(name)} TEMPLATE ${admin(template)}`
    yield* Effect.acquireRelease(create, () =>
      admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.orDie)
    )
    return databaseUrl(adminUrl, name)
  })

/** A new database on the server at `adminUrl` (a copy of `template` if given), dropped when the layer's scope closes. */
export const temporaryPostgresDatabase = (adminUrl: Redacted.Redacted, template?: string) =>
  Layer.unwrapScoped(Effect.map(temporaryPostgresUrl(adminUrl, template), postgresDatabase))

/**
 * A migrated database to copy test databases from, for the scope: on the server at
 * CISBOOK_TEST_DATABASE_URL when it is set, a database migrated once (its name); otherwise an
 * in-memory PGlite migrated once and dumped to a file (its path). A test run makes one (see the
 * vitest global setup) and passes it on in CISBOOK_TEST_DATABASE_TEMPLATE, so that each test
 * file's database is a copy rather than migrated afresh.
 */
export const migratedTemplate = Effect.gen(function* () {
  const postgres = yield* Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL"))
  const suffix = randomBytes(6).toString("hex")
  if (Option.isSome(postgres)) {
    const admin = yield* adminOf(postgres.value)
    const name = `cisbook_template_${suffix}`
    yield* Effect.acquireRelease(admin`CREATE DATABASE ${admin(name)}`, () =>
      admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.orDie)
    )
    // Migrated over a connection of its own, closed before any copy is made: PostgreSQL copies
    // a template only while no one is connected to it.
    yield* Effect.scoped(Effect.provide(migrate, postgresDatabase(databaseUrl(postgres.value, name))))
    return name
  }
  const dump = yield* Effect.scoped(
    Effect.gen(function* () {
      const pglite = yield* openPglite("memory://")
      yield* Effect.scoped(Effect.provide(migrate, pgliteClientOver(pglite)))
      return yield* Effect.promise(() => pglite.dumpDataDir("none"))
    })
  )
  const path = join(tmpdir(), `cisbook-test-template-${suffix}.tar`)
  yield* Effect.acquireRelease(
    Effect.promise(async () => writeFile(path, new Uint8Array(await dump.arrayBuffer()))),
    () => Effect.promise(() => rm(path, { force: true }))
  )
  return path
})

/** {@link migratedTemplate} for a caller outside Effect (vitest's global setup): the template, and its removal. */
export const openMigratedTemplate = async () => {
  const scope = Effect.runSync(Scope.make())
  const template = await Effect.runPromise(Scope.extend(migratedTemplate, scope))
  return { template, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** A PGlite in memory: a copy of the dumped template at `template` when given, otherwise empty. */
const memoryPglite = (template: Option.Option<string>) =>
  Option.match(template, {
    onNone: () => pgliteClient("memory://"),
    onSome: (path) =>
      Layer.unwrapEffect(
        Effect.map(
          Effect.promise(() => readFile(path)),
          (bytes) => pgliteClient("memory://", new Blob([new Uint8Array(bytes)]))
        )
      )
  })

const testDatabase = (template: Option.Option<string>) =>
  Layer.unwrapEffect(
    Effect.map(Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL")), (url) =>
      Option.match(url, {
        onNone: () => memoryPglite(template),
        onSome: (adminUrl) => temporaryPostgresDatabase(adminUrl, Option.getOrUndefined(template))
      })
    )
  )

/**
 * A fresh, empty database: a temporary database on the server at CISBOOK_TEST_DATABASE_URL
 * when it is set, otherwise an in-memory PGlite (which takes a second or more to start, so
 * share one per test file).
 */
export const UnmigratedEphemeralDatabase = testDatabase(Option.none())

/**
 * A fresh, migrated database for tests and benchmarks: a copy of the run's migrated template
 * (CISBOOK_TEST_DATABASE_TEMPLATE, see {@link migratedTemplate}) when there is one, otherwise
 * migrated here. MigrationsLive checks it either way.
 */
export const EphemeralDatabase = MigrationsLive.pipe(
  Layer.provideMerge(
    Layer.unwrapEffect(
      Effect.map(Config.option(Config.string("CISBOOK_TEST_DATABASE_TEMPLATE")), (template) =>
        testDatabase(Option.filter(template, (name) => name !== ""))
      )
    )
  )
)
