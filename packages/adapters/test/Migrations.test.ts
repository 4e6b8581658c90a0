import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { migrate } from "@cisbook/adapters/sql/Migrations"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
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
        [16, "cis_scheme"]
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
        "contacts",
        "effect_sql_migrations",
        "email_templates",
        "events",
        "gocardless_sandbox_idempotency_keys",
        "gocardless_sandbox_resources",
        "idempotency_keys",
        "mail_attachments",
        "mail_outbox",
        "mandates",
        "memberships",
        "monthly_returns",
        "purchase_invoices",
        "rate_limits",
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
})
