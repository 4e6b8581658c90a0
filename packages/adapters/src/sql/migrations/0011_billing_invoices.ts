import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // CB-000001, CB-000002, ... across the service. A sequence never hands a number out twice; a
  // run's transaction takes one only once it has claimed returns to bill.
  yield* sql`CREATE SEQUENCE billing_invoice_number_seq`

  // The service's invoices to its users. An invoice is inserted unfinished in the transaction
  // that claims its returns (monthly_returns.billing_invoice_id), which makes it its own outbox
  // entry: a run leases unfinished ones (leased_until), stores the PDF, creates the payment, and
  // sets finished_at. The PDF lives here so that any process serves it, and it lands or not with the row.
  yield* sql`
    CREATE TABLE billing_invoices (
      user_id uuid NOT NULL REFERENCES users (id),
      id uuid NOT NULL,
      seq bigint NOT NULL,
      number text NOT NULL,
      issue_date date NOT NULL,
      period_start date NOT NULL,
      period_end date NOT NULL,
      currency text NOT NULL DEFAULT 'GBP' CHECK (currency = 'GBP'),
      subtotal bigint NOT NULL CHECK (subtotal >= 0),
      vat bigint NOT NULL CHECK (vat >= 0),
      total bigint NOT NULL CHECK (total = subtotal + vat),
      payment_status text NOT NULL
        CHECK (payment_status IN ('WaitingForMandate', 'Pending', 'Paid', 'Failed', 'Cancelled')),
      payment_reference text,
      mandate_reference text,
      pdf bytea,
      created_at timestamptz NOT NULL,
      finished_at timestamptz,
      leased_until timestamptz,
      CONSTRAINT billing_invoices_pkey PRIMARY KEY (user_id, id),
      CONSTRAINT billing_invoices_number_key UNIQUE (number),
      CONSTRAINT billing_invoices_period_check CHECK (period_start <= period_end)
    )`
  yield* sql`CREATE INDEX billing_invoices_list_idx ON billing_invoices (user_id, issue_date DESC, seq DESC)`
  yield* sql`CREATE INDEX billing_invoices_unfinished_idx ON billing_invoices (seq) WHERE finished_at IS NULL`

  // One line per invoiced return, as it was invoiced (the tenant's code and the description are kept as written).
  yield* sql`
    CREATE TABLE billing_invoice_lines (
      user_id uuid NOT NULL,
      invoice_id uuid NOT NULL,
      position integer NOT NULL,
      tenant_id uuid NOT NULL,
      tenant_code text NOT NULL,
      return_id uuid NOT NULL,
      description text NOT NULL,
      quantity integer NOT NULL CHECK (quantity >= 0),
      unit_price bigint NOT NULL CHECK (unit_price >= 0),
      amount bigint NOT NULL CHECK (amount = quantity * unit_price),
      CONSTRAINT billing_invoice_lines_pkey PRIMARY KEY (user_id, invoice_id, position),
      CONSTRAINT billing_invoice_lines_invoice_fkey FOREIGN KEY (user_id, invoice_id)
        REFERENCES billing_invoices (user_id, id)
    )`

  // The run's list of owners with something to bill, found from the uninvoiced returns' tenants.
  yield* sql`CREATE INDEX memberships_owner_idx ON memberships (tenant_id, user_id) WHERE role = 'Owner'`
})
