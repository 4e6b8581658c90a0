import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The highest INV-style sequence each tenant has issued or claimed. Numbering a sales invoice
  // updates the tenant's row, which serialises numbering per tenant until the transaction ends.
  yield* sql`
    CREATE TABLE sales_invoice_sequences (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
      last_sequence bigint NOT NULL CHECK (last_sequence > 0)
    )`

  // Money in integer pence. amount_paid is the sum of the invoice's payments, kept with them in
  // one transaction; the checks are the last line against paying more than is due.
  yield* sql`
    CREATE TABLE sales_invoices (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      number text COLLATE "C" NOT NULL,
      contact_id uuid NOT NULL,
      issue_date date NOT NULL,
      due_date date NOT NULL,
      reference text,
      subtotal bigint NOT NULL CHECK (subtotal >= 0),
      vat bigint NOT NULL CHECK (vat >= 0),
      cis_deduction bigint NOT NULL CHECK (cis_deduction >= 0 AND cis_deduction <= subtotal),
      amount_paid bigint NOT NULL CHECK (amount_paid >= 0 AND amount_paid <= subtotal + vat - cis_deduction),
      created_at timestamptz NOT NULL,
      CONSTRAINT sales_invoices_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT sales_invoices_number_key UNIQUE (tenant_id, number),
      CONSTRAINT sales_invoices_contact_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
      CONSTRAINT sales_invoices_dates_check CHECK (due_date >= issue_date)
    )`
  // The list's order, for the tenant and for one customer (which also answers "has it invoices?").
  yield* sql`CREATE INDEX sales_invoices_issued_idx ON sales_invoices (tenant_id, issue_date DESC, created_at DESC, id DESC)`
  yield* sql`
    CREATE INDEX sales_invoices_contact_issued_idx
      ON sales_invoices (tenant_id, contact_id, issue_date DESC, created_at DESC, id DESC)`

  // Each payment keeps the share of its invoice's CIS deduction it was given when recorded.
  yield* sql`
    CREATE TABLE sales_invoice_payments (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      invoice_id uuid NOT NULL,
      date date NOT NULL,
      amount bigint NOT NULL CHECK (amount > 0),
      cis_deduction bigint NOT NULL CHECK (cis_deduction >= 0),
      reference text,
      created_at timestamptz NOT NULL,
      CONSTRAINT sales_invoice_payments_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT sales_invoice_payments_invoice_fkey
        FOREIGN KEY (tenant_id, invoice_id) REFERENCES sales_invoices (tenant_id, id)
    )`
  yield* sql`CREATE INDEX sales_invoice_payments_date_idx ON sales_invoice_payments (tenant_id, date, id)`
  yield* sql`
    CREATE INDEX sales_invoice_payments_invoice_idx ON sales_invoice_payments (tenant_id, invoice_id, created_at, id)`

  yield* sql`
    CREATE TABLE purchase_invoices (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      number text COLLATE "C" NOT NULL,
      contact_id uuid NOT NULL,
      issue_date date NOT NULL,
      due_date date NOT NULL,
      reference text,
      subtotal bigint NOT NULL CHECK (subtotal >= 0),
      vat bigint NOT NULL CHECK (vat >= 0),
      cis_deduction bigint NOT NULL CHECK (cis_deduction >= 0 AND cis_deduction <= subtotal),
      created_at timestamptz NOT NULL,
      CONSTRAINT purchase_invoices_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT purchase_invoices_number_key UNIQUE (tenant_id, contact_id, number),
      CONSTRAINT purchase_invoices_contact_fkey
        FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
      CONSTRAINT purchase_invoices_dates_check CHECK (due_date >= issue_date)
    )`
  yield* sql`
    CREATE INDEX purchase_invoices_issued_idx ON purchase_invoices (tenant_id, issue_date DESC, created_at DESC, id DESC)`
  yield* sql`
    CREATE INDEX purchase_invoices_contact_issued_idx
      ON purchase_invoices (tenant_id, contact_id, issue_date DESC, created_at DESC, id DESC)`
})
