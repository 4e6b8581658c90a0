import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // rate-limiter-flexible's PostgreSQL store, as that library creates it (its own statements read
  // and write it): a counter per key, with its window's end in epoch milliseconds. The keys are
  // client addresses and user ids, not tenant data, so no tenant_id.
  yield* sql`
    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`
})
