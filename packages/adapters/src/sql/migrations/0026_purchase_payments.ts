import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A CIS subcontractor's bill keeps the materials in its subtotal and the treatment its deduction
  // was worked at; every invoice stored before is a plain supplier's (no materials, no treatment)
  // and unpaid. amount_paid is the sum of the invoice's payments, kept with them in one transaction.
  yield* sql`
    ALTER TABLE purchase_invoices
      ADD COLUMN materials bigint NOT NULL DEFAULT 0,
      ADD COLUMN tax_treatment text,
      ADD COLUMN amount_paid bigint NOT NULL DEFAULT 0,
      ADD CONSTRAINT purchase_invoices_materials_check CHECK (materials >= 0 AND materials <= subtotal),
      ADD CONSTRAINT purchase_invoices_tax_treatment_check
        CHECK (tax_treatment IN ('Gross', 'Net', 'Unmatched') OR (tax_treatment IS NULL AND materials = 0)),
      ADD CONSTRAINT purchase_invoices_amount_paid_check
        CHECK (amount_paid >= 0 AND amount_paid <= subtotal + vat - cis_deduction)`

  // Each payment keeps its shares of its invoice's gross, materials and deduction as recorded.
  yield* sql`
    CREATE TABLE purchase_invoice_payments (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      invoice_id uuid NOT NULL,
      date date NOT NULL,
      amount bigint NOT NULL CHECK (amount > 0),
      gross_amount bigint NOT NULL CHECK (gross_amount >= 0),
      materials bigint NOT NULL CHECK (materials >= 0),
      deducted bigint NOT NULL CHECK (deducted >= 0),
      reference text,
      created_at timestamptz NOT NULL,
      CONSTRAINT purchase_invoice_payments_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT purchase_invoice_payments_invoice_fkey
        FOREIGN KEY (tenant_id, invoice_id) REFERENCES purchase_invoices (tenant_id, id)
    )`
  yield* sql`
    CREATE INDEX purchase_invoice_payments_invoice_idx
      ON purchase_invoice_payments (tenant_id, invoice_id, created_at, id)`
  // The draft of a tax month's return: the tenant's payments dated in it, carrying what the draft
  // sums, so that the month's payments are read from the index alone before their bills are joined.
  yield* sql`
    CREATE INDEX purchase_invoice_payments_date_idx
      ON purchase_invoice_payments (tenant_id, date, id)
      INCLUDE (invoice_id, amount, gross_amount, materials, deducted)`
})
