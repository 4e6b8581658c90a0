import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A key belongs to the caller who sent it (scope: the user), so one caller's key never
  // answers another's request. A claim not yet answered has a lease and no status.
  yield* sql`
    CREATE TABLE idempotency_keys (
      scope text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL,
      fingerprint text NOT NULL,
      claim_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      locked_until timestamptz,
      status integer,
      headers jsonb,
      body bytea,
      CONSTRAINT idempotency_keys_pkey PRIMARY KEY (scope, key),
      CONSTRAINT idempotency_keys_answer_check CHECK ((status IS NULL) = (locked_until IS NOT NULL))
    )`
  yield* sql`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`
})
