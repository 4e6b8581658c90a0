import * as path from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { clientOptions } from "./ClientOptions.js"
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
  Effect.gen(function* () {
    const url = yield* Config.option(Config.redacted("DATABASE_URL"))
    const server = Option.filter(url, (u) => Redacted.value(u).trim() !== "")
    if (Option.isSome(server)) return postgresDatabase(server.value)
    return embeddedDatabase(yield* Config.withDefault(Config.string("DATA_DIR"), "./data"))
  })
)
