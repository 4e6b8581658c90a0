import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `users` users, each the Owner of one tenant with a billing address and `months` accepted
 * monthly returns (tax months ending 5 January, 5 February, ...) of 1 to 5 subcontractors; every
 * other user with an active direct debit mandate, held by the sandbox provider as well.
 */
export const seedBilling = (users: number, months: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `INSERT INTO users (id, email, name, created_at)
       SELECT md5('user' || n)::uuid, 'payer' || n || '@bench.example', 'Payer ' || n, now()
       FROM generate_series(1, $1::int) n`,
      [users]
    )
    yield* sql.unsafe(
      `INSERT INTO tenants (id, code, name, email, created_at)
       SELECT md5('tenant' || n)::uuid, 'bt-' || n, 'Builder ' || n || ' Ltd', null, now()
       FROM generate_series(1, $1::int) n`,
      [users]
    )
    yield* sql.unsafe(
      `INSERT INTO memberships (tenant_id, user_id, role, added_at)
       SELECT md5('tenant' || n)::uuid, md5('user' || n)::uuid, 'Owner', now() FROM generate_series(1, $1::int) n`,
      [users]
    )
    yield* sql.unsafe(
      `INSERT INTO billing_profiles (user_id, company_name, billing_email, address_line1, address_line2, address_line3,
         postcode, country, updated_at)
       SELECT md5('user' || n)::uuid, 'Builder ' || n || ' Ltd', 'accounts' || n || '@bench.example',
         n || ' Analytical Row', 'Marylebone', 'London', 'NW1 6XE', 'GB', now()
       FROM generate_series(1, $1::int) n`,
      [users]
    )
    yield* sql.unsafe(
      `INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, submitted_at, accepted_at,
         deducted, declared_employment_status, declared_subcontractors_verified, declared_information_correct,
         declared_at)
       SELECT md5('tenant' || n)::uuid, md5('return' || n || '-' || m)::uuid, make_date(2026, m, 5), 'Accepted',
         jsonb_build_object('name', 'Builder ' || n || ' Ltd', 'utr', '8456789123'),
         (SELECT jsonb_agg(jsonb_build_object('contactId', md5('contact' || n || '-' || j)::uuid,
            'contactCode', 'SUB' || j, 'name', 'Subcontractor ' || j, 'utr', '2234567890',
            'verificationNumber', null, 'taxTreatment', 'Gross', 'grossAmount', 100000, 'materials', 0, 'deducted', 0))
          FROM generate_series(1, 1 + (n + m) % 5) j),
         make_date(2026, m, 10), make_date(2026, m, 10) + interval '1 hour', 0, true, true, true, make_date(2026, m, 10)
       FROM generate_series(1, $1::int) n, generate_series(1, $2::int) m`,
      [users, months]
    )
    yield* sql.unsafe(
      `INSERT INTO mandates (user_id, id, status, session_token, redirect_flow_id, redirect_url, reference,
         account_holder_name, bank_name, account_number_ending, next_possible_charge_date, created_at, expires_at,
         completed_at)
       SELECT md5('user' || n)::uuid, md5('mandate' || n)::uuid, 'Active', 'sess_bench' || n, 'RE' || lpad(n::text, 10, '0'),
         null, 'MD' || lpad(n::text, 10, '0'), 'Payer ' || n, 'BARCLAYS BANK PLC', '11', date '2026-06-01', now(),
         now() + interval '30 minutes', now()
       FROM generate_series(2, $1::int, 2) n`,
      [users]
    )
    yield* sql.unsafe(
      `INSERT INTO gocardless_sandbox_resources (id, kind, body, created_at)
       SELECT 'MD' || lpad(n::text, 10, '0'), 'mandates',
         jsonb_build_object('id', 'MD' || lpad(n::text, 10, '0'), 'created_at', now(), 'reference', 'BENCH-' || n,
           'status', 'active', 'scheme', 'bacs', 'next_possible_charge_date', '2026-06-01',
           'payments_require_approval', false, 'metadata', '{}'::jsonb,
           'links', jsonb_build_object('creditor', 'CR000SANDBOX', 'customer', 'CU' || lpad(n::text, 10, '0'),
             'customer_bank_account', 'BA' || lpad(n::text, 10, '0'))),
         now()
       FROM generate_series(2, $1::int, 2) n`,
      [users]
    )
    yield* sql`ANALYZE monthly_returns`
    yield* sql`ANALYZE memberships`
  })

/**
 * One more accepted return for user `n`'s tenant, for the tax month `month` months after
 * January 2026 (so the 6th ends 5 June 2026): a later run bills it as an invoice of its own.
 */
export const seedLaterReturn = (n: number, month: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe(
      `INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, submitted_at, accepted_at,
         deducted, declared_employment_status, declared_subcontractors_verified, declared_information_correct,
         declared_at)
       SELECT md5('tenant' || n)::uuid, md5('return' || n || '-' || m)::uuid, period_end, 'Accepted',
         jsonb_build_object('name', 'Builder ' || n || ' Ltd', 'utr', '8456789123'),
         jsonb_build_array(jsonb_build_object('contactId', md5('contact' || n || '-1')::uuid,
           'contactCode', 'SUB1', 'name', 'Subcontractor 1', 'utr', '2234567890',
           'verificationNumber', null, 'taxTreatment', 'Gross', 'grossAmount', 100000, 'materials', 0, 'deducted', 0)),
         period_end + 5, period_end + 5, 0, true, true, true, period_end + 5
       FROM (SELECT $1::int AS n, $2::int AS m, (date '2026-01-05' + make_interval(months => $2::int - 1))::date AS period_end) later`,
      [n, month]
    )
  )
