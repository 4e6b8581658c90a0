import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // Each statement of an accepted return that went out, written in the transaction that records
  // the acceptance: mailed (mail_id; pdf is what was attached), and/or to be delivered into the
  // tenant of a connected subcontractor over the connection deliver_via. Such a row is its own
  // outbox entry while delivery_status is 'Due', leased by lease_token until leased_until; the
  // delivery keeps the PDF it delivered. mail_id names a row of mail_outbox without a foreign key:
  // the outbox is a queue, and a mail gone from it leaves the statement as it was.
  yield* sql`
    CREATE TABLE return_statements (
      tenant_id uuid NOT NULL,
      monthly_return_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      contact_code text COLLATE "C" NOT NULL,
      pdf bytea,
      mail_id uuid,
      issued_at timestamptz NOT NULL,
      deliver_via uuid,
      delivery_status text CHECK (delivery_status IN ('Due', 'Delivered', 'Dropped')),
      delivered_to_tenant_id uuid REFERENCES tenants (id),
      delivered_to_tenant_code text COLLATE "C",
      delivered_at timestamptz,
      lease_token uuid,
      leased_until timestamptz,
      CONSTRAINT return_statements_pkey PRIMARY KEY (tenant_id, monthly_return_id, contact_id),
      CONSTRAINT return_statements_return_fkey FOREIGN KEY (tenant_id, monthly_return_id)
        REFERENCES monthly_returns (tenant_id, id),
      CONSTRAINT return_statements_delivery_check CHECK ((deliver_via IS NULL) = (delivery_status IS NULL)),
      CONSTRAINT return_statements_delivered_check CHECK (
        (delivery_status = 'Delivered' AND delivered_to_tenant_id IS NOT NULL AND delivered_to_tenant_code IS NOT NULL
          AND delivered_at IS NOT NULL AND pdf IS NOT NULL)
        OR (delivery_status IS DISTINCT FROM 'Delivered' AND delivered_to_tenant_id IS NULL
          AND delivered_to_tenant_code IS NULL AND delivered_at IS NULL)
      )
    )`
  // The deliverers' queue, across tenants: every Due delivery, earliest issued first.
  yield* sql`CREATE INDEX return_statements_due_idx ON return_statements (issued_at) WHERE delivery_status = 'Due'`

  // The statements mailed before this table: each mail of a CisStatement carries one attachment
  // named statement-<code>-<periodEnd>.pdf, for the tenant's one accepted return of that month.
  yield* sql`
    INSERT INTO return_statements (tenant_id, monthly_return_id, contact_id, contact_code, pdf, mail_id, issued_at)
    SELECT r.tenant_id, r.id, (line ->> 'contactId')::uuid, line ->> 'contactCode', a.content, m.id, r.accepted_at
    FROM monthly_returns r
    CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS line
    JOIN mail_attachments a ON a.tenant_id = r.tenant_id
      AND a.filename = 'statement-' || (line ->> 'contactCode') || '-' || to_char(r.period_end, 'YYYY-MM-DD') || '.pdf'
    JOIN mail_outbox m ON m.tenant_id = a.tenant_id AND m.id = a.mail_id AND m.type = 'CisStatement'
    WHERE r.status = 'Accepted'
    ON CONFLICT DO NOTHING`

  // Statements a subcontractor tenant received from a connected contractor: at most one per line
  // of a contractor's return (source_*), whichever deliverer gets there, so each arrives once.
  // The contractor's tenant is named as it was when the statement arrived (tenant codes never
  // change); contact_id is the receiving tenant's contact for the contractor.
  yield* sql`
    CREATE TABLE received_statements (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      id uuid NOT NULL,
      source_tenant_id uuid NOT NULL REFERENCES tenants (id),
      source_return_id uuid NOT NULL,
      source_contact_id uuid NOT NULL,
      contractor_tenant_code text COLLATE "C" NOT NULL,
      contractor_name text NOT NULL,
      employer_reference text,
      contact_id uuid NOT NULL,
      contact_code text COLLATE "C" NOT NULL,
      period_end date NOT NULL CHECK (extract(day FROM period_end) = 5),
      tax_treatment text NOT NULL CHECK (tax_treatment IN ('Gross', 'Net', 'Unmatched')),
      verification_number text,
      gross_amount bigint NOT NULL CHECK (gross_amount >= 0),
      materials bigint NOT NULL CHECK (materials >= 0),
      deducted bigint NOT NULL CHECK (deducted >= 0),
      pdf bytea NOT NULL,
      received_at timestamptz NOT NULL,
      CONSTRAINT received_statements_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT received_statements_source_key UNIQUE (tenant_id, source_tenant_id, source_return_id, source_contact_id)
    )`
  yield* sql`
    CREATE INDEX received_statements_list_idx ON received_statements (tenant_id, period_end DESC, received_at DESC, id)`
})
