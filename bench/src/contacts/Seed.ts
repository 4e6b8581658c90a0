import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const surnames = `ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Johnson','Davies','Patel','Wright','Evans','Walker']`
const trades = `ARRAY['Building','Roofing','Plumbing','Electrical','Joinery','Groundworks','Scaffolding','Plastering']`

/** A UTR with HMRC's check digit in front of the 9 digits `body` (an SQL expression). */
const validUtr = (body: string) =>
  `(ARRAY[2,1,9,8,7,6,5,4,3,2,1])[1 + (SELECT sum(substr(${body}, i, 1)::int * (ARRAY[6,7,8,9,10,5,4,3,2])[i])
     FROM generate_series(1, 9) i)::int % 11]::text || ${body}`

/**
 * `count` contacts for one tenant in two set-based statements: realistic names ("Smith Roofing
 * 123"), half of them CIS subcontractors with a trading name and a 10-digit UTR, a third
 * customers, codes C0000001... (registered in contact_codes, as the service does).
 */
export const seedContacts = (tenantId: string, count: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `INSERT INTO contact_codes (tenant_id, code)
       SELECT $1::uuid, 'C' || lpad(n::text, 7, '0') FROM generate_series(1, $2::int) n`,
      [tenantId, count]
    )
    yield* sql.unsafe(
      `INSERT INTO contacts (tenant_id, id, code, name, email, is_customer, is_supplier, is_cis_subcontractor,
         vat_registered, cis_type, cis_first_name, cis_last_name, cis_trading_name, cis_utr,
         verification_status, default_vat_rate, created_at, updated_at)
       SELECT $1::uuid, gen_random_uuid(), 'C' || lpad(n::text, 7, '0'),
         (${surnames})[1 + n % 12] || ' ' || (${trades})[1 + (n / 12) % 8] || ' ' || n,
         'accounts' || n || '@contact' || (n % 97) || '.example.com',
         n % 3 = 0, n % 3 <> 0, n % 3 <> 0 AND n % 2 = 0, n % 5 = 0,
         CASE WHEN n % 3 <> 0 AND n % 2 = 0 THEN 'SoleTrader' END,
         CASE WHEN n % 3 <> 0 AND n % 2 = 0 THEN 'Sam' END,
         CASE WHEN n % 3 <> 0 AND n % 2 = 0 THEN (${surnames})[1 + n % 12] END,
         CASE WHEN n % 3 <> 0 AND n % 2 = 0 THEN (${trades})[1 + n % 8] || ' Services ' || n END,
         CASE WHEN n % 3 <> 0 AND n % 2 = 0 THEN ${validUtr("lpad(((n::bigint * 7919) % 1000000000)::text, 9, '0')")} END,
         CASE WHEN n % 3 <> 0 AND n % 2 = 0 THEN (ARRAY['Verified','NotVerified','Error'])[1 + n % 3] END,
         CASE WHEN n % 3 <> 0 THEN CASE WHEN n % 5 = 0 THEN 'Standard' ELSE 'NoVat' END END,
         now() - (n || ' minutes')::interval, now() - (n || ' minutes')::interval
       FROM generate_series(1, $2::int) n`,
      [tenantId, count]
    )
  })

/** Tenants that share the table with the measured one, each with its contacts. */
export const seedNeighbours = (tenants: number, contactsEach: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    for (let i = 1; i <= tenants; i++) {
      const [row] = yield* sql<{ id: string }>`
        INSERT INTO tenants (id, code, name, created_at) VALUES (gen_random_uuid(), ${`neighbour-${i}`}, ${`Neighbour ${i}`}, now())
        RETURNING id`
      yield* seedContacts(row!.id, contactsEach)
    }
    yield* sql`ANALYZE contacts`
  })
