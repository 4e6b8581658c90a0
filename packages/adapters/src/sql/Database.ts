import * as fs from "node:fs"
import { Effect, Layer, Redacted } from "effect"
import { CopyInPg } from "./CopyIn.js"
import { DatabaseConfig } from "./DatabaseConfig.js"
import { pooledPgClient } from "./DatabasePool.js"
import { lockDataDir } from "./DataDirLock.js"
import { pgliteSocketClient, servePglite, socketPath } from "./PgliteSocket.js"

/** A PostgreSQL server (15 or later), and its COPY for bulk loads. */
export const postgresDatabase = (url: Redacted.Redacted) =>
  Layer.merge(pooledPgClient({ connectionString: Redacted.value(url), max: 10 }, "Cancelled"), CopyInPg)

/** Holds `dataDir`, opens its database and serves it on its socket; a client of our own through that socket. */
const openEmbedded = (dataDir: string) =>
  Effect.gen(function* () {
    yield* lockDataDir(dataDir)
    yield* servePglite(dataDir)
    // One connection, as when PGlite was used in-process: this process's transactions serialise.
    return pgliteSocketClient(dataDir, 1)
  })

/**
 * The embedded PGlite database in `<dataDir>/pg`, held by this process alone while the layer
 * lives and served on a socket in `dataDir`, through which this process and others use it.
 */
export const embeddedDatabase = (dataDir: string) => Layer.unwrapScoped(openEmbedded(dataDir))

/**
 * For the admin CLI: the embedded database through the socket of the process that holds
 * `dataDir` (a running server), or held and opened here when no process does.
 */
export const sharedEmbeddedDatabase = (dataDir: string) =>
  Layer.unwrapScoped(
    Effect.catchTag(openEmbedded(dataDir), "DatabaseLocked", (locked) =>
      fs.existsSync(socketPath(dataDir)) ? Effect.succeed(pgliteSocketClient(dataDir, 1)) : Effect.fail(locked)
    )
  )

/** PostgreSQL at DATABASE_URL when it is set; otherwise the embedded database in DATA_DIR (default ./data). */
export const DatabaseLive = Layer.unwrapEffect(
  Effect.map(DatabaseConfig, (choice) =>
    choice._tag === "Server" ? postgresDatabase(choice.url) : embeddedDatabase(choice.dataDir)
  )
)

/** As DatabaseLive, but the embedded database is shared with the process that holds it. */
export const SharedDatabaseLive = Layer.unwrapEffect(
  Effect.map(DatabaseConfig, (choice) =>
    choice._tag === "Server" ? postgresDatabase(choice.url) : sharedEmbeddedDatabase(choice.dataDir)
  )
)
