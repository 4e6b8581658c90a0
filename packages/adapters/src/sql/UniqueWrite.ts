import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

const UNIQUE_VIOLATION = "23505"

/** The constraint a unique violation names; node-postgres and PGlite report it alike. */
const violatedConstraint = (error: unknown): string | undefined => {
  const cause = typeof error === "object" && error !== null && "cause" in error ? error.cause : undefined
  if (typeof cause !== "object" || cause === null) return undefined
  const { code, constraint } = cause as { readonly code?: unknown; readonly constraint?: unknown }
  return code === UNIQUE_VIOLATION && typeof constraint === "string" ? constraint : undefined
}

/**
 * Runs a write that may break a unique constraint: a violation of one of `keys`' constraints
 * fails with DuplicateKey naming it (for example `{ users_email_key: "email" }`); every other
 * failure is a defect. Inside a transaction the write runs under a savepoint, because
 * PostgreSQL aborts the whole transaction on a failed statement and a caller that recovers
 * from DuplicateKey must be able to go on.
 */
export const uniqueWrite =
  (sql: SqlClient.SqlClient, keys: Readonly<Record<string, string>>) =>
  <A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, DuplicateKey, R> =>
    Effect.serviceOption(SqlClient.TransactionConnection).pipe(
      Effect.flatMap((transaction) => (Option.isSome(transaction) ? sql.withTransaction(write) : write)),
      Effect.catchAll((error) => {
        const constraint = violatedConstraint(error)
        const key = constraint !== undefined && Object.hasOwn(keys, constraint) ? keys[constraint] : undefined
        return key === undefined ? Effect.die(error) : Effect.fail(new DuplicateKey({ key }))
      })
    )
