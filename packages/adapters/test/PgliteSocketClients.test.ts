import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { embeddedDatabase } from "@cisbook/adapters/sql/Database"
import { pgliteSocketClient } from "@cisbook/adapters/sql/PgliteSocket"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Layer } from "effect"
import * as Pg from "pg"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-socket-clients-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/** The server holding the embedded database, with its own client of the socket, and the socket's directory. */
const embeddedServer = Effect.gen(function* () {
  const dir = yield* tempDir
  const server = Context.get(yield* Layer.build(embeddedDatabase(dir)), SqlClient.SqlClient)
  return { dir, server }
})

/** A statement of the client's own (its text names the client) with a parameter; what it answered, when not its own answer. */
const ownStatement = (sql: SqlClient.SqlClient, who: string, n: number) =>
  Effect.map(
    sql.unsafe<{ readonly n: number; readonly who: string }>(`SELECT $1::int AS n, '${who}' AS who`, [n]),
    (rows) =>
      rows.length === 1 && rows[0]!.n === n && rows[0]!.who === who ? [] : [`${who} ${n}: ${JSON.stringify(rows)}`]
  ).pipe(Effect.catchAll((error) => Effect.succeed([`${who} ${n}: ${String(error.cause)}`])))

/** `count` of the client's statements, each alone and in a transaction of its own; the wrong answers. */
const statements = (sql: SqlClient.SqlClient, who: string, count: number) =>
  Effect.map(
    Effect.forEach(
      Array.from({ length: count }, (_, n) => n),
      (n) =>
        Effect.zipWith(ownStatement(sql, who, n), sql.withTransaction(ownStatement(sql, who, -n)), (a, b) => [
          ...a,
          ...b
        ])
    ),
    (wrong) => wrong.flat()
  )

/** An admin CLI run after run beside the server: each connects to the socket, sends its statements and leaves. */
const cliRuns = (dir: string, who: string, runs: number) =>
  Effect.map(
    Effect.forEach(Array.from({ length: runs }), () =>
      Effect.scoped(
        Effect.flatMap(Layer.build(pgliteSocketClient(dir, 1)), (context) =>
          statements(Context.get(context, SqlClient.SqlClient), who, 5)
        )
      )
    ),
    (wrong) => wrong.flat()
  )

describe("clients of the embedded database's socket at once (issue 40)", () => {
  it.scopedLive("each get the answers of their own statements", () =>
    Effect.gen(function* () {
      const { dir, server } = yield* embeddedServer
      // Before, while one client's transaction went on, the others' messages waited; when it
      // ended, the clients' Parse, Bind and Execute took turns, and a statement ran another
      // client's statement or portal, or found its own gone ("unnamed prepared statement does not exist").
      const wrong = yield* Effect.all(
        [
          statements(server, "server", 40),
          statements(server, "server", 40),
          cliRuns(dir, "cli-a", 8),
          cliRuns(dir, "cli-b", 8)
        ],
        { concurrency: "unbounded" }
      )
      expect(wrong.flat()).toEqual([])
    })
  )

  it.scopedLive("are not held up by a client that leaves in the middle of its turn, and what it began is undone", () =>
    Effect.gen(function* () {
      const { dir, server } = yield* embeddedServer
      yield* server`CREATE TABLE marks (mark text)`
      const leaving = () =>
        Effect.acquireRelease(
          Effect.promise(async () => {
            const client = new Pg.Client({ host: dir, port: 5432, user: "postgres", database: "postgres" })
            // Its connection is cut below: the client's complaint is expected.
            client.on("error", () => {})
            await client.connect()
            return client
          }),
          (client) => Effect.promise(() => client.end())
        )
      const connectionOf = (client: Pg.Client) => (client as unknown as { connection: PgConnection }).connection

      const inTransaction = yield* leaving()
      yield* Effect.promise(() => inTransaction.query("BEGIN"))
      yield* Effect.promise(() => inTransaction.query("INSERT INTO marks VALUES ($1)", ["in a transaction"]))
      connectionOf(inTransaction).stream.destroy()

      // Parse, Bind and Execute, and no Sync: the statement has run, in a transaction not yet ended.
      const unsynced = yield* leaving()
      const connection = connectionOf(unsynced)
      const executed = Effect.async<void>((resume) => {
        connection.once("commandComplete", () => resume(Effect.void))
      })
      connection.parse({ text: "INSERT INTO marks VALUES ('not synced')", types: [] })
      connection.bind({})
      connection.execute({})
      connection.flush()
      yield* executed
      connection.stream.destroy()

      // Before, the next client's Sync committed the statement the leaving client never synced.
      const after = yield* server<{ readonly mark: string }>`SELECT mark FROM marks`.pipe(
        Effect.timeout("5 seconds"),
        Effect.either
      )
      expect(after).toEqual(Either.right([]))
      expect(yield* server`SELECT 1 AS one`.pipe(server.withTransaction)).toEqual([{ one: 1 }])
    })
  )
})

/** The parts of node-postgres's connection that a client in the middle of its turn is left with. */
interface PgConnection {
  readonly stream: { readonly destroy: () => void }
  readonly once: (event: "commandComplete", listener: () => void) => void
  readonly parse: (query: { readonly text: string; readonly types: ReadonlyArray<number> }) => void
  readonly bind: (config: object) => void
  readonly execute: (config: object) => void
  readonly flush: () => void
}
