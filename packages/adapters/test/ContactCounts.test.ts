import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"

const groups = "tenant_id, is_customer, is_supplier, is_cis_subcontractor, coalesce(verification_status, '')"

layer(EphemeralDatabase)("contact_counts", (it) => {
  it.effect("equals a count of the contacts by group after multi-row inserts, updates and deletes", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const tenants = yield* sql<{ id: string }>`
        INSERT INTO tenants (id, code, name, created_at)
        SELECT gen_random_uuid(), 'counted-' || n, 'Counted', now() FROM generate_series(1, 2) n
        RETURNING id`
      const ids = tenants.map((t) => t.id)
      const rows = ids.flatMap((tenantId) => Array.from({ length: 6 }, (_, n) => ({ tenantId, code: `C${n}` })))
      yield* sql`INSERT INTO contact_codes ${sql.insert(rows)}`
      yield* sql`
        INSERT INTO contacts (tenant_id, id, code, name, is_customer, is_supplier, is_cis_subcontractor,
          vat_registered, verification_status, created_at, updated_at)
        SELECT tenant_id, gen_random_uuid(), code, code, right(code, 1)::int % 2 = 0, right(code, 1)::int % 2 = 1,
          right(code, 1)::int % 3 = 0 AND right(code, 1)::int % 2 = 1, false,
          CASE WHEN right(code, 1)::int % 3 = 0 THEN 'NotVerified' END, now(), now()
        FROM contact_codes WHERE tenant_id IN ${sql.in(ids)}`
      const compare = Effect.all([
        sql.unsafe(
          `SELECT ${groups} AS g, count(*)::bigint AS n FROM contacts GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`
        ),
        sql.unsafe(
          `SELECT ${groups} AS g, contacts AS n FROM contact_counts WHERE contacts <> 0 ORDER BY 1, 2, 3, 4, 5`
        )
      ]).pipe(Effect.tap(([counted, kept]) => expect(kept).toEqual(counted)))

      yield* compare
      yield* sql`UPDATE contacts SET is_customer = NOT is_customer, verification_status = 'Verified' WHERE code IN ('C1', 'C3')`
      yield* compare
      yield* sql`UPDATE contacts SET name = 'Renamed'`
      yield* compare
      yield* sql`DELETE FROM contacts WHERE code IN ('C0', 'C3') AND tenant_id = ${ids[0]!}`
      yield* compare
      const [total] = yield* sql<{
        n: number
      }>`SELECT sum(contacts)::bigint AS n FROM contact_counts WHERE tenant_id IN ${sql.in(ids)}`
      expect(total?.n).toBe(10)
    })
  )
})
