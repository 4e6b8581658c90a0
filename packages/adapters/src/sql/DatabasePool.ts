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
 * How an interrupted statement (its request's client gone, a shutdown) is ended: on PostgreSQL,
 * cancelled by the server; on PGlite, run to its end, which cannot be cut short.
 */
export type InterruptedStatements = "Cancelled" | "RunToTheirEnd"

/**
 * Keeps @effect/sql-pg from cancelling the pool's interrupted statements: it cancels with a
 * statement of its own, `SELECT pg_cancel_backend(pid)` on another connection of the pool, only
 * for a connection that has a process id. PGlite does nothing with it, and its pool has one
 * connection, held by the statement to cancel (or its transaction): the cancel waited for it 5 s,
 * and every other statement of the process behind it (issue 40). Without the cancel, the
 * connection is given back as soon as the statement ends.
 */
export const runInterruptedToTheirEnd = (pool: Pg.Pool): Pg.Pool =>
  pool.on("connect", (client) => {
    ;(client as { processID?: number | null | undefined }).processID = undefined
  })

/**
 * The @effect/sql-pg client over a pool of ours (as PgClient.layer makes one, checked with a
 * first statement), so that the pool's use can be watched.
 */
export const pooledPgClient = (config: Pg.PoolConfig, interrupted: InterruptedStatements) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const pool = new Pg.Pool({ application_name: "cisbook", ...config, types: clientOptions.types })
          // A connection that fails while idle is dropped by the pool; the next statement gets a new one.
          pool.on("error", () => {})
          if (interrupted === "RunToTheirEnd") runInterruptedToTheirEnd(pool)
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
