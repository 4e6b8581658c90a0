import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { historyFault } from "@cisbook/adapters/sql/MigrationHistory"
import { KNOWN_MIGRATIONS, migrate } from "@cisbook/adapters/sql/Migrations"
import { SqlClient } from "@effect/sql"
import { describe, expect, it as plainIt, layer } from "@effect/vitest"
import { Effect } from "effect"

layer(UnmigratedEphemeralDatabase)("Migrations", (it) => {
  it.effect("run once on a fresh database, even when two migrators start together; then there is nothing to do", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [first, second] = yield* Effect.all([migrate, migrate], { concurrency: 2 })
      expect([...first, ...second]).toEqual([
        [1, "foundation"],
        [2, "events_and_settings"],
        [3, "contacts"],
        [4, "webhooks"],
        [5, "invoices"],
        [6, "mail"],
        [7, "monthly_returns"],
        [8, "billing"],
        [9, "verification_requests"],
        [10, "connections"],
        [11, "billing_invoices"],
        [12, "idempotency_keys"],
        [13, "webhook_health"],
        [14, "rate_limits"],
        [15, "return_correlation"],
        [16, "cis_scheme"],
        [17, "govtalk_engine"],
        [18, "provider_events"],
        [19, "gocardless_sandbox_events"],
        [20, "failed_payments"],
        [21, "hmrc_credentials"],
        [22, "govtalk_response_endpoints"],
        [23, "partner_utr"],
        [24, "govtalk_final_answers"],
        [25, "statements"],
        [26, "purchase_payments"],
        [27, "declarations_and_registration"],
        [28, "import_analyses"],
        [29, "payment_read_at"],
        [30, "event_data_json"]
      ])
      expect(yield* migrate).toEqual([])

      const tables = yield* sql<{ tableName: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`
      expect(tables.map((t) => t.tableName)).toEqual([
        "api_keys",
        "billing_invoice_lines",
        "billing_invoices",
        "billing_profiles",
        "connection_sides",
        "connections",
        "contact_codes",
        "contact_counts",
        "contact_import_analyses",
        "contact_import_analysis_batches",
        "contacts",
        "effect_sql_migrations",
        "email_templates",
        "events",
        "gocardless_sandbox_events",
        "gocardless_sandbox_idempotency_keys",
        "gocardless_sandbox_resources",
        "gocardless_sandbox_webhooks",
        "govtalk_engine_messages",
        "hmrc_credentials",
        "idempotency_keys",
        "mail_attachments",
        "mail_outbox",
        "mandates",
        "memberships",
        "monthly_returns",
        "provider_events",
        "purchase_invoice_payments",
        "purchase_invoices",
        "rate_limits",
        "received_statements",
        "return_statements",
        "sales_invoice_payments",
        "sales_invoice_sequences",
        "sales_invoices",
        "tenant_settings",
        "tenants",
        "users",
        "verification_requests",
        "webhook_deliveries",
        "webhook_delivery_attempts",
        "webhooks"
      ])
      const [trgm] = yield* sql<{
        similarity: number
      }>`SELECT similarity('Acme Builders', 'acme builder') AS similarity`
      expect(trgm?.similarity).toBeGreaterThan(0.5)
    })
  )

  it.effect("allow only the roles Owner and Member", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [user] = yield* sql<{ id: string }>`
        INSERT INTO users (id, email, name, created_at) VALUES (gen_random_uuid(), 'role@example.com', 'R', now()) RETURNING id`
      const [tenant] = yield* sql<{ id: string }>`
        INSERT INTO tenants (id, code, name, created_at) VALUES (gen_random_uuid(), 'roles', 'R', now()) RETURNING id`
      const error = yield* Effect.flip(
        sql`INSERT INTO memberships (tenant_id, user_id, role, added_at) VALUES (${tenant?.id ?? ""}, ${user?.id ?? ""}, 'Admin', now())`
      )
      expect(error.cause).toMatchObject({ code: "23514" })
    })
  )

  it.effect("refuse a database that has 15 but not 12, naming 12, and leave it as it is", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* migrate
      const [twelve] = yield* sql<{ readonly name: string; readonly createdAt: Date }>`
        DELETE FROM effect_sql_migrations WHERE migration_id = 12 RETURNING name, created_at`
      const refused = yield* Effect.flip(migrate)
      expect(refused).toMatchObject({ _tag: "MigrationError", reason: "bad-state" })
      const highest = Object.keys(KNOWN_MIGRATIONS).at(-1)
      expect(refused.message).toContain(
        `migration 0012_idempotency_keys was never applied, but ${highest} was, so migrating would skip it`
      )
      const applied = yield* sql<{ readonly migrationId: number }>`SELECT migration_id FROM effect_sql_migrations`
      expect(applied.map((row) => row.migrationId)).not.toContain(12)
      yield* sql`INSERT INTO effect_sql_migrations (migration_id, name, created_at) VALUES (12, ${twelve?.name ?? ""}, ${twelve?.createdAt ?? new Date()})`
      expect(yield* migrate).toEqual([])
    })
  )

  it.effect("refuse a database where an applied migration has another name, naming both", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* migrate
      yield* sql`UPDATE effect_sql_migrations SET name = 'rate_limits_draft' WHERE migration_id = 14`
      const refused = yield* Effect.flip(migrate)
      expect(refused.message).toContain("migration 14 was applied as 0014_rate_limits_draft, not as 0014_rate_limits")
      yield* sql`UPDATE effect_sql_migrations SET name = 'rate_limits' WHERE migration_id = 14`
      expect(yield* migrate).toEqual([])
    })
  )
})

describe("historyFault", () => {
  const known = [
    [1, "a"],
    [2, "b"],
    [3, "c"]
  ] as const

  plainIt("finds nothing wrong with a fresh database, nor with one short of the newest migrations", () => {
    expect(historyFault([], known)).toBeUndefined()
    expect(historyFault([[1, "a"]], known)).toBeUndefined()
    expect(historyFault(known, known)).toBeUndefined()
  })

  plainIt("names every migration below the highest applied one that never ran", () => {
    expect(historyFault([[3, "c"]], known)).toContain(
      "migrations 0001_a, 0002_b were never applied, but 0003_c was, so migrating would skip them"
    )
  })
})
