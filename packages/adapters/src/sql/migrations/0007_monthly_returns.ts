import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A Submitted return is its own outbox entry: due at next_attempt_at, leased to one filer by
  // lease_token until leased_until. The contractor and lines are copied as they stood when filed,
  // so they are kept as documents. billing_invoice_id is set once when a billing run invoices it.
  yield* sql`
    CREATE TABLE monthly_returns (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      id uuid NOT NULL,
      period_end date NOT NULL CHECK (extract(day FROM period_end) = 5),
      status text NOT NULL CHECK (status IN ('Submitted', 'Accepted', 'Rejected')),
      contractor jsonb NOT NULL,
      lines jsonb NOT NULL CHECK (jsonb_typeof(lines) = 'array' AND jsonb_array_length(lines) BETWEEN 1 AND 1000),
      submitted_at timestamptz NOT NULL,
      accepted_at timestamptz,
      rejection_reason text,
      billing_invoice_id uuid,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      lease_token uuid,
      leased_until timestamptz,
      CONSTRAINT monthly_returns_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT monthly_returns_outcome_check CHECK (
        (status = 'Submitted' AND accepted_at IS NULL AND rejection_reason IS NULL AND next_attempt_at IS NOT NULL)
        OR (status = 'Accepted' AND accepted_at IS NOT NULL AND rejection_reason IS NULL)
        OR (status = 'Rejected' AND accepted_at IS NULL AND rejection_reason IS NOT NULL)
      ),
      CONSTRAINT monthly_returns_invoiced_check CHECK (billing_invoice_id IS NULL OR status = 'Accepted')
    )`
  // One live return per tax month: a rejected one may be filed again.
  yield* sql`
    CREATE UNIQUE INDEX monthly_returns_period_key ON monthly_returns (tenant_id, period_end)
      WHERE status IN ('Submitted', 'Accepted')`
  yield* sql`CREATE INDEX monthly_returns_list_idx ON monthly_returns (tenant_id, period_end DESC, submitted_at DESC)`
  yield* sql`CREATE INDEX monthly_returns_due_idx ON monthly_returns (next_attempt_at) WHERE status = 'Submitted'`
  // The billing run's work list: accepted returns not invoiced yet.
  yield* sql`
    CREATE INDEX monthly_returns_uninvoiced_idx ON monthly_returns (tenant_id, period_end)
      WHERE status = 'Accepted' AND billing_invoice_id IS NULL`
})
