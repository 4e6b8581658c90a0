import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A tenant's email settings (signature, automatic statements) as one document.
  yield* sql`ALTER TABLE tenant_settings ADD COLUMN email_settings jsonb`

  // Only customised templates have a row; a type without one uses the defaults.
  yield* sql`
    CREATE TABLE email_templates (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      type text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      CONSTRAINT email_templates_pkey PRIMARY KEY (tenant_id, type)
    )`

  // The mail outbox: rendered mail, written in the transaction of the change that causes it.
  // A sender leases a due mail (lease_token, leased_until) while it sends it; a lease that runs
  // out unrecorded makes it due again. seq orders mail as it was queued.
  yield* sql`
    CREATE TABLE mail_outbox (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      id uuid NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      type text NOT NULL,
      to_address text NOT NULL,
      from_name text NOT NULL,
      reply_to text,
      subject text NOT NULL,
      body text NOT NULL,
      attachment_count integer NOT NULL,
      status text NOT NULL CHECK (status IN ('Queued', 'Sent', 'Failed')),
      attempts integer NOT NULL,
      next_attempt_at timestamptz,
      last_error text,
      lease_token uuid,
      leased_until timestamptz,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      CONSTRAINT mail_outbox_pkey PRIMARY KEY (tenant_id, id)
    )`
  // The senders' queue, across tenants: every Queued mail, by when it is due.
  yield* sql`CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'Queued'`
  yield* sql`CREATE INDEX mail_outbox_seq_idx ON mail_outbox (seq DESC)`
  yield* sql`CREATE INDEX mail_outbox_status_idx ON mail_outbox (status, seq DESC)`

  yield* sql`
    CREATE TABLE mail_attachments (
      tenant_id uuid NOT NULL,
      mail_id uuid NOT NULL,
      position integer NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      content bytea NOT NULL,
      CONSTRAINT mail_attachments_pkey PRIMARY KEY (tenant_id, mail_id, position),
      CONSTRAINT mail_attachments_mail_fkey FOREIGN KEY (tenant_id, mail_id)
        REFERENCES mail_outbox (tenant_id, id) ON DELETE CASCADE
    )`
})
