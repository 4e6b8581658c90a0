import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // failing_since: the first failed attempt since the last success (a webhook failing for 5
  // days is disabled). previous_secret: the secret a rotation replaced, which signs deliveries
  // too until previous_secret_until.
  yield* sql`
    ALTER TABLE webhooks
      ADD COLUMN failing_since timestamptz,
      ADD COLUMN previous_secret text,
      ADD COLUMN previous_secret_until timestamptz`
})
