import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { KNOWN_MIGRATIONS, migrate } from "@cisbook/adapters/sql/Migrations"
import { Migrator, SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"

/** The schema as it stood before purchase invoices had payments. */
const migrateBeforePayments = Migrator.make({})({
  loader: Migrator.fromRecord(
    Object.fromEntries(Object.entries(KNOWN_MIGRATIONS).filter(([name]) => name < "0026_purchase_payments"))
  )
})

const tenant = "00000000-0000-4000-8000-000000000001"
const supplier = "00000000-0000-4000-8000-000000000002"
const invoice = "00000000-0000-4000-8000-000000000003"

layer(UnmigratedEphemeralDatabase)("Migration 0026_purchase_payments", (it) => {
  it.effect("keeps every purchase invoice before it valid: a plain supplier's, unpaid", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* migrateBeforePayments
      yield* sql`INSERT INTO tenants (id, code, name, created_at) VALUES (${tenant}, 'lovelace', 'Lovelace Ltd', now())`
      yield* sql`INSERT INTO contact_codes (tenant_id, code) VALUES (${tenant}, 'SMITH')`
      yield* sql`
        INSERT INTO contacts (tenant_id, id, code, name, is_customer, is_supplier, is_cis_subcontractor, vat_registered,
          created_at, updated_at)
        VALUES (${tenant}, ${supplier}, 'SMITH', 'Smith', false, true, false, false, now(), now())`
      yield* sql`
        INSERT INTO purchase_invoices (tenant_id, id, number, contact_id, issue_date, due_date, subtotal, vat,
          cis_deduction, created_at)
        VALUES (${tenant}, ${invoice}, 'S-1', ${supplier}, '2026-04-10', '2026-04-30', 100000, 20000, 20000, now())`
      expect((yield* migrate)[0]).toEqual([26, "purchase_payments"])
      const rows = yield* sql`
        SELECT materials, tax_treatment, amount_paid FROM purchase_invoices WHERE tenant_id = ${tenant}`
      expect(rows).toEqual([{ materials: 0, taxTreatment: null, amountPaid: 0 }])
      // Paying it goes through: the payments table is there, and the amount paid stays within what is due.
      yield* sql`
        INSERT INTO purchase_invoice_payments (tenant_id, id, invoice_id, date, amount, gross_amount, materials, deducted,
          created_at)
        VALUES (${tenant}, ${tenant}, ${invoice}, '2026-05-01', 100000, 100000, 0, 20000, now())`
      const over = yield* Effect.either(sql`UPDATE purchase_invoices SET amount_paid = 100001 WHERE id = ${invoice}`)
      expect(over._tag).toBe("Left")
    })
  )
})
