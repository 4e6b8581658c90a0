import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The transactional outbox. `seq` orders the events of one statement, which share an instant
  // and whose ids are random after their millisecond.
  yield* sql`
    CREATE TABLE events (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      id uuid NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      type text NOT NULL,
      data jsonb NOT NULL,
      occurred_at timestamptz NOT NULL,
      CONSTRAINT events_pkey PRIMARY KEY (tenant_id, id)
    )`
  yield* sql`CREATE INDEX events_tenant_id_occurred_at_idx ON events (tenant_id, occurred_at, seq)`

  // One row per tenant, made by the first setting written; each setting is its own nullable
  // column, so a later setting adds a column and leaves this one alone.
  yield* sql`
    CREATE TABLE tenant_settings (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
      cis_details jsonb
    )`
})
