import { PGlite } from "@electric-sql/pglite"
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { createPgConfig } from "@electric-sql/pglite/node-postgres"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { Pool } from "pg"
import { clientOptions } from "./ClientOptions.js"
import { pgClientOver } from "./DatabasePool.js"

/**
 * The real @effect/sql-pg client over an embedded PGlite, through PGlite's node-postgres
 * compatible connection. PGlite is one session, so the pool holds one client: transactions
 * serialise. `dataDir` is a directory, or `memory://`.
 */
export const pgliteClient = (dataDir: string) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const pglite = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => PGlite.create(dataDir, { extensions: { pg_trgm, btree_gin } }),
          catch: (cause) => new SqlError({ cause, message: `Could not open the embedded database in ${dataDir}` })
        }),
        (pglite) => Effect.promise(() => pglite.close())
      )
      const pool = yield* Effect.acquireRelease(
        Effect.sync(
          () => new Pool({ ...createPgConfig(pglite), max: 1, idleTimeoutMillis: 0, types: clientOptions.types })
        ),
        (pool) => Effect.promise(() => pool.end())
      )
      return pgClientOver(pool)
    })
  )
