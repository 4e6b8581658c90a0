import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The local GovTalk Transaction Engine (TAX_AUTHORITY=sandbox): each message it took, under its
  // correlation id, with the final answer it gives once polled after ready_at; kept in the
  // service's database so that a filer in another process (or after a death) can poll it.
  yield* sql`
    CREATE TABLE govtalk_engine_messages (
      correlation_id text PRIMARY KEY,
      class text NOT NULL,
      transaction_id text NOT NULL,
      sender_id text NOT NULL,
      received_at timestamptz NOT NULL,
      ready_at timestamptz NOT NULL,
      answer text NOT NULL,
      early_polls integer NOT NULL DEFAULT 0,
      deleted_at timestamptz
    )`
  yield* sql`CREATE INDEX govtalk_engine_messages_transaction ON govtalk_engine_messages (class, transaction_id)`
})
