import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The inbox of the direct debit provider's events (GoCardless webhooks): written by the
  // receiving request, one row per event id however often it is sent, handled by a worker that
  // leases due rows (lease_token, leased_until; a lease that runs out makes the row due again).
  // handled is 'pending' until the worker settles it. seq orders the rows as they were received.
  yield* sql`
    CREATE TABLE provider_events (
      id text NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      webhook_id text,
      created_at timestamptz NOT NULL,
      resource_type text NOT NULL,
      action text NOT NULL,
      resource_id text,
      links jsonb NOT NULL,
      details jsonb NOT NULL,
      metadata jsonb NOT NULL,
      received_at timestamptz NOT NULL,
      handled text NOT NULL DEFAULT 'pending'
        CHECK (handled IN ('pending', 'applied', 'ignored', 'duplicate')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      lease_token uuid,
      leased_until timestamptz,
      handled_at timestamptz,
      CONSTRAINT provider_events_pkey PRIMARY KEY (id)
    )`
  yield* sql`CREATE INDEX provider_events_due_idx ON provider_events (next_attempt_at) WHERE handled = 'pending'`
  yield* sql`CREATE INDEX provider_events_seq_idx ON provider_events (seq DESC)`

  // An event names the provider's resource only: the mandate or the invoice is found by it.
  yield* sql`CREATE INDEX mandates_reference_idx ON mandates (reference)`
  yield* sql`CREATE INDEX billing_invoices_payment_reference_idx ON billing_invoices (payment_reference)`

  // The service's own mail to a user (billing notices) shares the outbox with the tenants' mail:
  // such a row has a user_id instead of a tenant_id. Ids are UUIDs, unique on their own.
  yield* sql`ALTER TABLE mail_attachments DROP CONSTRAINT mail_attachments_mail_fkey`
  yield* sql`ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_pkey`
  yield* sql`ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (id)`
  yield* sql`ALTER TABLE mail_outbox ALTER COLUMN tenant_id DROP NOT NULL`
  yield* sql`ALTER TABLE mail_outbox ADD COLUMN user_id uuid REFERENCES users (id)`
  yield* sql`
    ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_owner_check
      CHECK ((tenant_id IS NULL) <> (user_id IS NULL))`
  yield* sql`ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_tenant_id_key UNIQUE (tenant_id, id)`
  yield* sql`
    ALTER TABLE mail_attachments ADD CONSTRAINT mail_attachments_mail_fkey FOREIGN KEY (tenant_id, mail_id)
      REFERENCES mail_outbox (tenant_id, id) ON DELETE CASCADE`
})
