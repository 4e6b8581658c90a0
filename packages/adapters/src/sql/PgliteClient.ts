import { PGlite } from "@electric-sql/pglite"
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { createPgConfig } from "@electric-sql/pglite/node-postgres"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { Pool } from "pg"
import { clientOptions } from "./ClientOptions.js"
import { pgClientOver, runInterruptedToTheirEnd } from "./DatabasePool.js"

/**
 * An embedded PGlite in `dataDir` (a directory, or `memory://`), closed with the scope; with
 * `loadDataDir`, started from that dump of a data directory (PGlite's `dumpDataDir`) instead
 * of an empty one, which skips initdb.
 */
export const openPglite = (dataDir: string, loadDataDir?: Blob) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        PGlite.create(dataDir, {
          extensions: { pg_trgm, btree_gin },
          ...(loadDataDir === undefined ? {} : { loadDataDir })
        }),
      catch: (cause) => new SqlError({ cause, message: `Could not open the embedded database in ${dataDir}` })
    }),
    (pglite) => Effect.promise(() => pglite.close())
  )

/**
 * The real @effect/sql-pg client over an open PGlite, through PGlite's node-postgres compatible
 * connection. PGlite is one session, so the pool holds one client: transactions serialise.
 */
export const pgliteClientOver = (pglite: PGlite) =>
  Layer.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() =>
          runInterruptedToTheirEnd(
            new Pool({ ...createPgConfig(pglite), max: 1, idleTimeoutMillis: 0, types: clientOptions.types })
          )
        ),
        (pool) => Effect.promise(() => pool.end())
      ),
      pgClientOver
    )
  )

/** The client over a PGlite opened in `dataDir` (see {@link openPglite}) for the layer's life. */
export const pgliteClient = (dataDir: string, loadDataDir?: Blob) =>
  Layer.unwrapScoped(Effect.map(openPglite(dataDir, loadDataDir), pgliteClientOver))
