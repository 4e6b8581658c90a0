import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseLocked, lockDataDir } from "@cisbook/adapters/sql/DataDirLock"
import { DatabaseLive, embeddedDatabase, sharedEmbeddedDatabase } from "@cisbook/adapters/sql/Database"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { KNOWN_MIGRATIONS, migrate } from "@cisbook/adapters/sql/Migrations"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Context, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-db-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const lockFile = (dir: string) => path.join(dir, "cisbook.lock")

/** A live process other than this one, ended with the scope. */
const otherProcess = Effect.acquireRelease(
  Effect.sync(() => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })),
  (child) =>
    Effect.async<void>((resume) => {
      if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
      child.once("exit", () => resume(Effect.void))
      child.kill()
    })
)

describe("embedded database", () => {
  it.scoped("is opened by one holder at a time, refuses others clearly, and keeps its data", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const first = yield* Scope.make()
      const database = yield* Layer.buildWithScope(embeddedDatabase(dir), first)
      const sql = Context.get(database, SqlClient.SqlClient)
      expect(yield* Effect.provide(migrate, database)).toEqual(
        Object.keys(KNOWN_MIGRATIONS).map((key) => [Number(key.slice(0, 4)), key.slice(5)])
      )
      yield* sql`INSERT INTO users (id, email, name, created_at) VALUES (gen_random_uuid(), 'kept@example.com', 'Kept', now())`
      expect(fs.readFileSync(lockFile(dir), "utf8")).toBe(`${process.pid}\n`)

      const refused = yield* Effect.flip(
        Effect.scoped(Layer.build(DatabaseLive)).pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dir]])))
        )
      )
      expect(refused).toBeInstanceOf(DatabaseLocked)
      expect(refused.message).toBe(
        `The embedded database in ${dir} is in use by process ${process.pid}. ` +
          "Stop that process, or set DATABASE_URL to use a PostgreSQL server."
      )

      yield* Scope.close(first, Exit.void)
      expect(fs.existsSync(lockFile(dir))).toBe(false)

      const again = yield* Layer.build(embeddedDatabase(dir))
      expect(yield* Effect.provide(migrate, again)).toEqual([])
      const kept = yield* Context.get(again, SqlClient.SqlClient)<{ name: string }>`SELECT name FROM users`
      expect(kept).toEqual([{ name: "Kept" }])
    })
  )

  it.scoped("is refused while another live process holds the lock, and taken over once it has gone", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const processScope = yield* Scope.make()
      const other = yield* Scope.extend(otherProcess, processScope)
      fs.writeFileSync(lockFile(dir), `${other.pid}\n`)

      const refused = yield* Effect.flip(Effect.scoped(lockDataDir(dir)))
      expect(refused).toEqual(new DatabaseLocked({ dataDir: dir, pid: other.pid ?? 0 }))
      expect(refused.message).toContain(`in use by process ${other.pid}`)

      yield* Scope.close(processScope, Exit.void)
      yield* Effect.scoped(
        Effect.tap(lockDataDir(dir), () =>
          Effect.sync(() => expect(fs.readFileSync(lockFile(dir), "utf8")).toBe(`${process.pid}\n`))
        )
      )
      expect(fs.existsSync(lockFile(dir))).toBe(false)
    })
  )

  it.scoped("is shared through the holder's socket: each sees the other's writes, never its open transaction", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const holder = Context.get(yield* Layer.build(embeddedDatabase(dir)), SqlClient.SqlClient)
      yield* Effect.provideService(migrate, SqlClient.SqlClient, holder)
      yield* holder`INSERT INTO users (id, email, name, created_at) VALUES (gen_random_uuid(), 'held@example.com', 'Held', now())`

      // The lock is held (here, as by a running server): this user joins through the socket.
      const joiner = Context.get(yield* Layer.build(sharedEmbeddedDatabase(dir)), SqlClient.SqlClient)
      expect(yield* joiner<{ name: string }>`SELECT name FROM users`).toEqual([{ name: "Held" }])
      yield* joiner`INSERT INTO users (id, email, name, created_at) VALUES (gen_random_uuid(), 'joined@example.com', 'Joined', now())`
      expect(yield* holder<{ name: string }>`SELECT name FROM users ORDER BY name`).toEqual([
        { name: "Held" },
        { name: "Joined" }
      ])

      // Forked before the transaction begins, so that it runs on the joiner's own connection.
      const inTransaction = yield* Deferred.make<void>()
      const reading = yield* Effect.fork(
        Deferred.await(inTransaction).pipe(
          Effect.zipRight(joiner<{ name: string }>`SELECT name FROM users ORDER BY name`)
        )
      )
      yield* holder
        .withTransaction(
          Effect.gen(function* () {
            yield* holder`INSERT INTO users (id, email, name, created_at) VALUES (gen_random_uuid(), 'undone@example.com', 'Undone', now())`
            yield* Deferred.succeed(inTransaction, undefined)
            // Time for the joiner's query to reach the server while this transaction is open.
            yield* holder`SELECT pg_sleep(0.3)`
            return yield* Effect.fail("undone")
          })
        )
        .pipe(Effect.flip)
      const seen = yield* Fiber.join(reading)
      expect(seen).toEqual([{ name: "Held" }, { name: "Joined" }])
    })
  )

  it.scoped("is refused to a joiner when its holder serves no socket", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      yield* lockDataDir(dir)
      const refused = yield* Effect.flip(Effect.scoped(Layer.build(sharedEmbeddedDatabase(dir))))
      expect(refused).toBeInstanceOf(DatabaseLocked)
    })
  )

  it.scoped("takes over a lock left by an earlier process with this process's pid, or an unreadable one", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      for (const content of [`${process.pid}\n`, "not a pid"]) {
        fs.writeFileSync(lockFile(dir), content)
        yield* Effect.scoped(lockDataDir(dir))
        expect(fs.existsSync(lockFile(dir))).toBe(false)
      }
    })
  )
})

layer(EphemeralDatabase)("client options", (it) => {
  it.effect("map column names to camelCase and read bigint as number, date as text, timestamptz as Date", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`
        SELECT 9007199254740991::bigint AS largest_pence, count(*) AS row_count, DATE '2026-04-05' AS tax_month,
          TIMESTAMPTZ '2026-04-05T10:00:00.123Z' AS created_at, '{"snake_key": 1}'::jsonb AS payload`
      expect(rows).toEqual([
        {
          largestPence: 9007199254740991,
          rowCount: 1,
          taxMonth: "2026-04-05",
          createdAt: new Date("2026-04-05T10:00:00.123Z"),
          payload: { snake_key: 1 }
        }
      ])
    })
  )

  it.effect("refuse a bigint beyond the safe integers rather than round it", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const error = yield* Effect.flip(sql`SELECT 9007199254740993::bigint AS too_large`)
      expect(error.cause).toBeInstanceOf(RangeError)
      expect(yield* sql`SELECT 1::bigint AS one`).toEqual([{ one: 1 }])
    })
  )
})
