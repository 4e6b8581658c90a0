import * as fs from "node:fs"
import * as path from "node:path"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { pooledPgClient } from "./DatabasePool.js"
import { PgliteSessionQueue } from "./PgliteSessionQueue.js"

/** PostgreSQL's own socket name, so that pg (and psql -h DIR) find it from the directory alone. */
const PORT = 5432

/** The Unix socket through which the process holding `<dataDir>` serves its embedded database. */
export const socketPath = (dataDir: string) => path.join(path.resolve(dataDir), `.s.PGSQL.${PORT}`)

const failure = (message: string) => (cause: unknown) => new SqlError({ cause, message })

/**
 * Opens the embedded PGlite in `<dataDir>/pg` and serves it over the PostgreSQL wire protocol on
 * a Unix socket in `dataDir`. PGlite is one session: the socket server lends it to one
 * connection at a time, from its first message until the session is idle again (a statement
 * answered, a transaction ended: {@link PgliteSessionQueue}), so every client, this process's own
 * included, connects through it to be isolated from the others.
 */
export const servePglite = (dataDir: string) =>
  Effect.gen(function* () {
    // Loaded here, by the process that holds the directory: a client through the socket (the
    // admin CLI beside a running server) and a server on PostgreSQL never load PGlite.
    const [{ PGlite }, { btree_gin }, { pg_trgm }, { PGLiteSocketServer }] = yield* Effect.promise(() =>
      Promise.all([
        import("@electric-sql/pglite"),
        import("@electric-sql/pglite/contrib/btree_gin"),
        import("@electric-sql/pglite/contrib/pg_trgm"),
        import("@electric-sql/pglite-socket")
      ])
    )
    const pglite = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(path.resolve(dataDir, "pg"), { extensions: { pg_trgm, btree_gin } }),
        catch: failure(`Could not open the embedded database in ${dataDir}`)
      }),
      (db) => Effect.promise(() => db.close())
    )
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          // Whoever held the directory before has gone (we hold its lock now): its socket is stale.
          fs.rmSync(socketPath(dataDir), { force: true })
          const server = new PGLiteSocketServer({ db: pglite, path: socketPath(dataDir), maxConnections: 16 })
          // The server's own queue interleaves the messages of its connections (see PgliteSessionQueue):
          // ours replaces it before any connection is made, each handler taking the server's queue.
          if (!("queryQueue" in server)) throw new Error("@electric-sql/pglite-socket no longer has a queryQueue")
          Object.assign(server, { queryQueue: new PgliteSessionQueue(pglite) })
          await server.start()
          return server
        },
        catch: failure(`Could not serve the embedded database on ${socketPath(dataDir)}`)
      }),
      (server) => Effect.promise(() => server.stop())
    )
  })

/** A client of the embedded database that the process holding `dataDir` serves. */
export const pgliteSocketClient = (dataDir: string, maxConnections: number) =>
  pooledPgClient(
    {
      host: path.resolve(dataDir),
      port: PORT,
      user: "postgres",
      database: "postgres",
      max: maxConnections
    },
    "RunToTheirEnd"
  )
