import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The tax authority's correlation id of a sent return, recorded right after sending (sent_at is
  // when the filer recorded it), so that the next filer polls for the answer instead of sending
  // the return again.
  yield* sql`ALTER TABLE monthly_returns ADD COLUMN correlation_id text, ADD COLUMN sent_at timestamptz`
  yield* sql`
    ALTER TABLE monthly_returns ADD CONSTRAINT monthly_returns_sent_check
      CHECK ((correlation_id IS NULL) = (sent_at IS NULL))`
})
