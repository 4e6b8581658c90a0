import { StoreBusy } from "@cisbook/core/system/StoreBusy"
import { SqlError } from "@effect/sql/SqlError"

/** SQLSTATEs of a failure that passes: the same statements may succeed when tried again. */
const PASSING_STATES: Readonly<Record<string, string>> = {
  "40001": "a serialization failure",
  "40P01": "a deadlock",
  "55P03": "a lock time-out",
  "57014": "a statement time-out",
  "57P01": "the database restarting",
  "57P02": "the database restarting",
  "57P03": "the database starting",
  "53300": "too many connections",
  "25P03": "an idle transaction's time-out"
}

/** Messages of node-postgres (and of the embedded database's socket) when the connection is lost or cannot be had. */
const LOST_CONNECTION =
  /connection terminated|connection error|failed to acquire connection|timeout exceeded when trying to connect|ECONNRESET|ECONNREFUSED|EPIPE|ENOENT|too many connections|client has encountered a connection error/i

const describe = (error: unknown): string | undefined => {
  if (!(error instanceof SqlError)) return undefined
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | null | undefined
  const code = typeof cause?.code === "string" ? cause.code : undefined
  if (code !== undefined && Object.hasOwn(PASSING_STATES, code)) return PASSING_STATES[code]
  // Class 08: connection exception.
  if (code?.startsWith("08")) return "a lost connection"
  const text = `${error.message} ${typeof cause?.message === "string" ? cause.message : ""}`
  return LOST_CONNECTION.test(text) ? "a lost connection" : undefined
}

/** The StoreBusy that `error` is, when it is a SQL failure that passes (see PASSING_STATES); otherwise undefined. */
export const transientSqlFailure = (error: unknown): StoreBusy | undefined => {
  const reason = describe(error)
  return reason === undefined ? undefined : new StoreBusy({ reason, cause: error })
}
