import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The secret is kept as it is shown: it signs every delivery, so it cannot be a hash.
  yield* sql`
    CREATE TABLE webhooks (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      id uuid NOT NULL,
      url text NOT NULL,
      description text,
      event_types text[] NOT NULL,
      enabled boolean NOT NULL,
      secret text NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT webhooks_pkey PRIMARY KEY (tenant_id, id)
    )`

  // One event on its way to one webhook. next_attempt_at is the automatic schedule's next
  // attempt, retry_requested_at a requested retry that goes before it; a dispatcher leases a
  // due delivery (lease_token, leased_until) while it sends it, and a lease that runs out
  // unrecorded makes it due again. seq orders deliveries as they were queued.
  yield* sql`
    CREATE TABLE webhook_deliveries (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      webhook_id uuid NOT NULL,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      status text NOT NULL CHECK (status IN ('Pending', 'Succeeded', 'Failed')),
      attempts integer NOT NULL,
      automatic_attempts integer NOT NULL,
      next_attempt_at timestamptz,
      retry_requested_at timestamptz,
      lease_token uuid,
      leased_until timestamptz,
      created_at timestamptz NOT NULL,
      CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT webhook_deliveries_webhook_fkey FOREIGN KEY (tenant_id, webhook_id)
        REFERENCES webhooks (tenant_id, id) ON DELETE CASCADE,
      CONSTRAINT webhook_deliveries_event_fkey FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id)
    )`
  yield* sql`CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (tenant_id, webhook_id, seq DESC)`
  yield* sql`CREATE INDEX webhook_deliveries_tenant_idx ON webhook_deliveries (tenant_id, seq DESC)`
  // The dispatchers' queue, across tenants: every delivery with an attempt to come, by when it is due.
  yield* sql`
    CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries ((coalesce(retry_requested_at, next_attempt_at)))
    WHERE coalesce(retry_requested_at, next_attempt_at) IS NOT NULL`

  yield* sql`
    CREATE TABLE webhook_delivery_attempts (
      tenant_id uuid NOT NULL,
      delivery_id uuid NOT NULL,
      attempt integer NOT NULL,
      at timestamptz NOT NULL,
      response_status integer,
      response_body text,
      duration_ms integer NOT NULL,
      error text,
      CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (tenant_id, delivery_id, attempt),
      CONSTRAINT webhook_delivery_attempts_delivery_fkey FOREIGN KEY (tenant_id, delivery_id)
        REFERENCES webhook_deliveries (tenant_id, id) ON DELETE CASCADE
    )`
})
