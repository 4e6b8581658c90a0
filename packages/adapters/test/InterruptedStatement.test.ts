import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { embeddedDatabase } from "@cisbook/adapters/sql/Database"
import { temporaryPostgresDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { pgliteClient } from "@cisbook/adapters/sql/PgliteClient"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Config, Context, Deferred, Effect, Either, Fiber, Layer, Option } from "effect"

const onPostgres = Option.isSome(Config.option(Config.string("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync))

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-interrupt-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/**
 * A transaction whose statement (`seconds` of pg_sleep) is under way, forked: as a request's
 * transaction is when its client goes away or the server shuts down.
 */
const transactionUnderWay = (sql: SqlClient.SqlClient, seconds: number) =>
  Effect.gen(function* () {
    const begun = yield* Deferred.make<void>()
    const fiber = yield* Effect.fork(
      sql.withTransaction(Effect.zipRight(Deferred.succeed(begun, undefined), sql`SELECT pg_sleep(${seconds})`))
    )
    // The fiber runs on into its statement before this one is resumed.
    yield* Deferred.await(begun)
    return fiber
  })

/**
 * The one connection to the embedded database is taken back as soon as the interrupted statement
 * ends (PGlite runs it to its end, whatever is asked). Before, @effect/sql-pg asked the database
 * to cancel it with a statement of its own, which waited for the pool's only connection, held by
 * the very transaction it was to cancel, for 5 s: every other statement of the process waited too.
 */
const interruptedOnEmbedded = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const holder = yield* transactionUnderWay(sql, 0.3)
    const interrupted = yield* Effect.fork(Fiber.interrupt(holder))
    const next = yield* sql<{ readonly one: number }>`SELECT 1 AS one`.pipe(
      Effect.timeoutFail({ duration: "3 seconds", onTimeout: () => "the next statement waited 3 s and more" }),
      Effect.either
    )
    expect(next).toEqual(Either.right([{ one: 1 }]))
    yield* Fiber.join(interrupted)
    // Nothing of the interrupted transaction is left open.
    expect(yield* sql`SELECT 1 AS one`.pipe(sql.withTransaction)).toEqual([{ one: 1 }])
  })

describe("a statement interrupted inside a transaction (a client gone, a shutdown)", () => {
  it.scopedLive(
    "on the embedded database served on its socket, holds the one connection no longer than the statement",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const sql = Context.get(yield* Layer.build(embeddedDatabase(dir)), SqlClient.SqlClient)
        yield* interruptedOnEmbedded(sql)
      })
  )

  it.scopedLive("on PGlite in the process, holds the one connection no longer than the statement", () =>
    Effect.gen(function* () {
      const sql = Context.get(yield* Layer.build(pgliteClient("memory://")), SqlClient.SqlClient)
      yield* interruptedOnEmbedded(sql)
    })
  )

  it.scopedLive.skipIf(!onPostgres)(
    "on PostgreSQL (needs CISBOOK_TEST_DATABASE_URL), is cancelled by the server rather than run to its end",
    () =>
      Effect.gen(function* () {
        const url = yield* Config.redacted("CISBOOK_TEST_DATABASE_URL")
        const sql = Context.get(yield* Layer.build(temporaryPostgresDatabase(url)), SqlClient.SqlClient)
        const holder = yield* transactionUnderWay(sql, 60)
        const interrupted = yield* Fiber.interrupt(holder).pipe(
          Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => "the 60 s statement was not cancelled" }),
          Effect.either
        )
        expect(interrupted._tag).toBe("Right")
        const sleeping = yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'`
        expect(sleeping).toEqual([{ n: 0 }])
      })
  )
})
