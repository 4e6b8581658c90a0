import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { KNOWN_MIGRATIONS, migrate } from "@cisbook/adapters/sql/Migrations"
import { Migrator, SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"

/** The schema as it stood before statements were recorded. */
const migrateBeforeStatements = Migrator.make({})({
  loader: Migrator.fromRecord(
    Object.fromEntries(Object.entries(KNOWN_MIGRATIONS).filter(([name]) => name < "0025_statements"))
  )
})

const tenant = "00000000-0000-4000-8000-000000000001"
const accepted = "00000000-0000-4000-8000-000000000002"
const rejected = "00000000-0000-4000-8000-000000000003"
const smith = "00000000-0000-4000-8000-000000000004"
const bricks = "00000000-0000-4000-8000-000000000005"
const smithMail = "00000000-0000-4000-8000-000000000006"
const invoiceMail = "00000000-0000-4000-8000-000000000007"
const pdf = new Uint8Array([37, 80, 68, 70, 45, 49, 46, 51])

const line = (contactId: string, contactCode: string) => ({
  contactId,
  contactCode,
  name: contactCode,
  utr: "2234567890",
  verificationNumber: null,
  taxTreatment: "Net",
  grossAmount: 100000,
  materials: 0,
  deducted: 20000
})

layer(UnmigratedEphemeralDatabase)("Migration 0025_statements", (it) => {
  it.effect("records the statements mailed before it, each with its mail and the PDF attached, and no other", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* migrateBeforeStatements
      yield* sql`INSERT INTO tenants (id, code, name, created_at) VALUES (${tenant}, 'lovelace', 'Lovelace Ltd', now())`
      const lines = JSON.stringify([line(smith, "SMITH"), line(bricks, "BRICKS")])
      yield* sql`
        INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, submitted_at, accepted_at)
        VALUES (${tenant}, ${accepted}, '2026-06-05', 'Accepted', '{"name":"Lovelace","utr":null}', ${lines}::jsonb,
          '2026-06-10T10:00:00Z', '2026-06-10T10:05:00Z')`
      // A rejected return of the month before, for the same subcontractors: nothing was mailed for it.
      yield* sql`
        INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, submitted_at, rejection_reason)
        VALUES (${tenant}, ${rejected}, '2026-05-05', 'Rejected', '{"name":"Lovelace","utr":null}', ${lines}::jsonb,
          '2026-05-10T10:00:00Z', 'UTR unknown')`
      const mail = (id: string, type: string, filename: string) =>
        Effect.gen(function* () {
          yield* sql`
            INSERT INTO mail_outbox (tenant_id, id, type, to_address, from_name, subject, body, attachment_count, status,
              attempts, next_attempt_at, created_at, sent_at)
            VALUES (${tenant}, ${id}, ${type}, 'someone@example.com', 'Lovelace', 'Subject', 'Body', 1, 'Sent', 1, NULL,
              now(), now())`
          yield* sql`
            INSERT INTO mail_attachments (tenant_id, mail_id, position, filename, content_type, content)
            VALUES (${tenant}, ${id}, 0, ${filename}, 'application/pdf', ${pdf})`
        })
      // SMITH was mailed its June statement; BRICKS had no email address. An invoice's PDF is no statement.
      yield* mail(smithMail, "CisStatement", "statement-SMITH-2026-06-05.pdf")
      yield* mail(invoiceMail, "SalesInvoice", "statement-BRICKS-2026-06-05.pdf")

      expect((yield* migrate)[0]).toEqual([25, "statements"])
      const rows = yield* sql<{
        monthlyReturnId: string
        contactId: string
        contactCode: string
        mailId: string | null
        pdf: Uint8Array | null
        issuedAt: Date
        deliveryStatus: string | null
      }>`
        SELECT monthly_return_id, contact_id, contact_code, mail_id, pdf, issued_at, delivery_status
        FROM return_statements WHERE tenant_id = ${tenant}`
      expect(
        rows.map(({ pdf: bytes, ...row }) => ({ ...row, pdf: bytes === null ? null : new Uint8Array(bytes) }))
      ).toEqual([
        {
          monthlyReturnId: accepted,
          contactId: smith,
          contactCode: "SMITH",
          mailId: smithMail,
          pdf,
          issuedAt: new Date("2026-06-10T10:05:00Z"),
          deliveryStatus: null
        }
      ])
    })
  )
})
