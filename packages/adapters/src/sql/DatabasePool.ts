import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Duration, Effect, Layer } from "effect"
import * as Pg from "pg"
import { clientOptions } from "./ClientOptions.js"

/** How the process's connections to the database are used right now. */
export interface PoolUsage {
  readonly inUse: number
  readonly idle: number
  /** Statements and transactions waiting for a connection. */
  readonly waiting: number
}

/** The process's pool of database connections, to watch. */
export class DatabasePool extends Context.Tag("adapters/DatabasePool")<
  DatabasePool,
  { readonly usage: () => PoolUsage }
>() {}

/** The @effect/sql-pg client over `pool` (whose life is the caller's), and the pool to watch. */
export const pgClientOver = (pool: Pg.Pool) =>
  Layer.merge(
    PgClient.layerFromPool({ acquire: Effect.succeed(pool), ...clientOptions }),
    Layer.succeed(DatabasePool, {
      usage: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount })
    })
  )

const CONNECT_TIMEOUT = Duration.seconds(5)

/**
 * The @effect/sql-pg client over a pool of ours (as PgClient.layer makes one, checked with a
 * first statement), so that the pool's use can be watched.
 */
export const pooledPgClient = (config: Pg.PoolConfig) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const pool = new Pg.Pool({ application_name: "cisbook", ...config, types: clientOptions.types })
          // A connection that fails while idle is dropped by the pool; the next statement gets a new one.
          pool.on("error", () => {})
          return pool
        }),
        (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
      )
      yield* Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: CONNECT_TIMEOUT,
          onTimeout: () =>
            new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
        })
      )
      return pgClientOver(pool)
    })
  )
