import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The sandbox's events (GET /events), written in the transaction of the change they tell of.
  yield* sql`
    CREATE TABLE gocardless_sandbox_events (
      id text NOT NULL,
      resource_type text NOT NULL,
      action text NOT NULL,
      body jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT gocardless_sandbox_events_pkey PRIMARY KEY (id)
    )`
  yield* sql`CREATE INDEX gocardless_sandbox_events_created_at ON gocardless_sandbox_events (created_at, id)`
  yield* sql`CREATE INDEX gocardless_sandbox_resources_kind_created_at ON gocardless_sandbox_resources (kind, created_at, id)`
  // The webhooks the sandbox sends (its outbox): the body as sent, byte for byte, so that every
  // attempt carries the same signature; leased by the worker that sends them.
  yield* sql`
    CREATE TABLE gocardless_sandbox_webhooks (
      id text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      leased_until timestamptz,
      lease_token text,
      delivered_at timestamptz,
      last_error text,
      CONSTRAINT gocardless_sandbox_webhooks_pkey PRIMARY KEY (id)
    )`
  yield* sql`
    CREATE INDEX gocardless_sandbox_webhooks_due ON gocardless_sandbox_webhooks (next_attempt_at)
    WHERE next_attempt_at IS NOT NULL`
  // So that the retention sweep can tell an old key from a new one.
  yield* sql`
    ALTER TABLE gocardless_sandbox_idempotency_keys
      ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`
})
