import * as path from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, type Redacted } from "effect"
import { clientOptions } from "./ClientOptions.js"
import { DatabaseConfig } from "./DatabaseConfig.js"
import { lockDataDir } from "./DataDirLock.js"
import { pgliteClient } from "./PgliteClient.js"

/** A PostgreSQL server (15 or later). */
export const postgresDatabase = (url: Redacted.Redacted) =>
  PgClient.layer({ url, maxConnections: 10, ...clientOptions })

/** The embedded PGlite database in `<dataDir>/pg`, held by this process alone while the layer lives. */
export const embeddedDatabase = (dataDir: string) =>
  Layer.unwrapScoped(Effect.as(lockDataDir(dataDir), pgliteClient(path.resolve(dataDir, "pg"))))

/** PostgreSQL at DATABASE_URL when it is set; otherwise the embedded database in DATA_DIR (default ./data). */
export const DatabaseLive = Layer.unwrapEffect(
  Effect.map(DatabaseConfig, (choice) =>
    choice._tag === "Server" ? postgresDatabase(choice.url) : embeddedDatabase(choice.dataDir)
  )
)
