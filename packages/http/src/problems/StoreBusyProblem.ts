import { transientSqlFailure } from "@cisbook/adapters/sql/TransientSqlFailure"
import { StoreBusy } from "@cisbook/core/system/StoreBusy"
import type { HttpServerResponse } from "@effect/platform"
import { type Cause, Effect, Option } from "effect"
import { problemResponse } from "./ProblemResponse.js"

/** Long enough for a lock, a deadlock's loser or a lost connection to have passed. */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 2

export const STORE_BUSY_DETAIL = `The database could not serve the request just now. Send it again in ${STORE_BUSY_RETRY_AFTER_SECONDS} seconds.`

/**
 * The store's failure that passes, when `error` is one: a StoreBusy (a transaction's, see
 * TransactorSql) or a statement's SQL failure that is one (a lock or statement time-out, a lost
 * connection, the embedded database busy).
 */
const busyStore = (error: unknown): Option.Option<StoreBusy> =>
  error instanceof StoreBusy ? Option.some(error) : Option.fromNullable(transientSqlFailure(error))

/**
 * A 503 problem with Retry-After for a request the database could not serve just now, never a
 * 500: the same request may succeed a moment later. Logged as a warning with its cause.
 */
export const storeBusyProblem = (
  error: unknown,
  cause: Cause.Cause<unknown>
): Option.Option<Effect.Effect<HttpServerResponse.HttpServerResponse>> =>
  Option.map(busyStore(error), (busy) =>
    Effect.logWarning(`The database could not serve a request just now: ${busy.reason}`, cause).pipe(
      Effect.as(
        problemResponse(
          503,
          "Service Unavailable",
          STORE_BUSY_DETAIL,
          { retryAfter: STORE_BUSY_RETRY_AFTER_SECONDS },
          { "retry-after": String(STORE_BUSY_RETRY_AFTER_SECONDS) }
        )
      )
    )
  )
