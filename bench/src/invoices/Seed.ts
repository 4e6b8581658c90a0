import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `customers` customers of the tenant with `invoices` sales invoices between them, issued over
 * 2026, each paid in 1 to 5 payments dated after its issue date (so about three payments an
 * invoice), with each payment's deduction share as the service would give it.
 */
export const seedInvoices = (tenantId: string, customers: number, invoices: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `INSERT INTO contact_codes (tenant_id, code)
       SELECT $1::uuid, 'K' || lpad(n::text, 7, '0') FROM generate_series(1, $2::int) n`,
      [tenantId, customers]
    )
    yield* sql.unsafe(
      `INSERT INTO contacts (tenant_id, id, code, name, is_customer, is_supplier, is_cis_subcontractor,
         vat_registered, created_at, updated_at)
       SELECT $1::uuid, gen_random_uuid(), 'K' || lpad(n::text, 7, '0'), 'Customer ' || n || ' Ltd',
         true, false, false, true, now(), now()
       FROM generate_series(1, $2::int) n`,
      [tenantId, customers]
    )
    yield* sql.unsafe(
      `INSERT INTO sales_invoices (tenant_id, id, number, contact_id, issue_date, due_date, reference,
         subtotal, vat, cis_deduction, amount_paid, created_at)
       SELECT $1::uuid, gen_random_uuid(), 'INV-' || lpad(n::text, 6, '0'),
         (SELECT id FROM contacts WHERE tenant_id = $1::uuid AND code = 'K' || lpad((1 + n % $2::int)::text, 7, '0')),
         date '2026-01-01' + (n % 330), date '2026-01-01' + (n % 330) + 30,
         CASE WHEN n % 4 = 0 THEN '=Job ' || n ELSE 'PO ' || n END,
         100000 + (n % 97) * 1000, 20000, 20000, 0, now()
       FROM generate_series(1, $3::int) n`,
      [tenantId, customers, invoices]
    )
    // Equal parts of the amount payable; the last part takes the pence left over.
    yield* sql.unsafe(
      `WITH parts AS (
         SELECT i.tenant_id, i.id, i.issue_date, i.subtotal + i.vat - i.cis_deduction AS payable, i.cis_deduction,
           1 + abs(hashtext(i.id::text)) % 5 AS count
         FROM sales_invoices i WHERE i.tenant_id = $1::uuid
       )
       INSERT INTO sales_invoice_payments (tenant_id, id, invoice_id, date, amount, cis_deduction, reference, created_at)
       SELECT p.tenant_id, gen_random_uuid(), p.id, p.issue_date + 7 * k,
         CASE WHEN k = p.count THEN p.payable - (p.payable / p.count) * (p.count - 1) ELSE p.payable / p.count END,
         CASE WHEN k = p.count THEN p.cis_deduction - (p.cis_deduction / p.count) * (p.count - 1)
           ELSE p.cis_deduction / p.count END,
         'BACS ' || k, now()
       FROM parts p, generate_series(1, p.count) k`,
      [tenantId]
    )
    yield* sql.unsafe(
      `UPDATE sales_invoices i SET amount_paid = subtotal + vat - cis_deduction WHERE tenant_id = $1::uuid`,
      [tenantId]
    )
    yield* sql`ANALYZE contacts`
    yield* sql`ANALYZE sales_invoices`
    yield* sql`ANALYZE sales_invoice_payments`
    const [row] = yield* sql<{ readonly payments: number }>`
      SELECT count(*) AS payments FROM sales_invoice_payments WHERE tenant_id = ${tenantId}`
    return row?.payments ?? 0
  })
