import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { KNOWN_MIGRATIONS, migrate } from "@cisbook/adapters/sql/Migrations"
import { Migrator, SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"

/** The schema as it stood before the contractor made its own declarations. */
const migrateBefore = Migrator.make({})({
  loader: Migrator.fromRecord(
    Object.fromEntries(Object.entries(KNOWN_MIGRATIONS).filter(([name]) => name < "0027_declarations_and_registration"))
  )
})

const filer = "00000000-0000-4000-8000-000000000001"
const newcomer = "00000000-0000-4000-8000-000000000002"
const unregistered = "00000000-0000-4000-8000-000000000003"
const withLines = "00000000-0000-4000-8000-000000000004"
const nil = "00000000-0000-4000-8000-000000000005"

const line = (deducted: number) => ({
  contactId: "00000000-0000-4000-8000-000000000009",
  contactCode: "SMITH",
  name: "Smith",
  utr: "2234567890",
  verificationNumber: null,
  taxTreatment: "Net",
  grossAmount: 100000,
  materials: 0,
  deducted
})

layer(UnmigratedEphemeralDatabase)("Migration 0027_declarations_and_registration", (it) => {
  it.effect(
    "records the returns filed before as declared on the contractor's behalf, by nobody, and dates each registration",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* migrateBefore
        for (const [id, code] of [
          [filer, "filer"],
          [newcomer, "newcomer"],
          [unregistered, "unregistered"]
        ] as const)
          yield* sql`INSERT INTO tenants (id, code, name, created_at) VALUES (${id}, ${code}, ${code}, now())`
        yield* sql`
          INSERT INTO tenant_settings (tenant_id, employer_reference, accounts_office_reference)
          VALUES (${filer}, '123/AB45678', '123PW12345678'), (${newcomer}, '123/AB45678', '123PW12345678')`
        yield* sql`INSERT INTO tenant_settings (tenant_id, cis_details) VALUES (${unregistered}, NULL)`
        const lines = JSON.stringify([line(20000), line(1234)])
        yield* sql`
          INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, submitted_at, accepted_at)
          VALUES (${filer}, ${withLines}, '2025-09-05', 'Accepted', '{"name":"Filer","utr":null}', ${lines}::jsonb,
            '2025-09-10T10:00:00Z', '2025-09-10T10:05:00Z')`
        yield* sql`
          INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, nil_return, inactive,
            submitted_at, accepted_at)
          VALUES (${filer}, ${nil}, '2025-10-05', 'Accepted', '{"name":"Filer","utr":null}', '[]'::jsonb, true, true,
            '2025-10-10T10:00:00Z', '2025-10-10T10:05:00Z')`

        expect((yield* migrate).map(([id]) => id)).toContain(27)

        const returns = yield* sql`
          SELECT id, declared_employment_status, declared_subcontractors_verified, declared_information_correct,
            declared_by, declared_at, released_at, deducted
          FROM monthly_returns ORDER BY period_end`
        expect(returns).toEqual([
          {
            id: withLines,
            declaredEmploymentStatus: true,
            declaredSubcontractorsVerified: true,
            declaredInformationCorrect: true,
            declaredBy: null,
            declaredAt: new Date("2025-09-10T10:00:00Z"),
            releasedAt: null,
            deducted: 21234
          },
          {
            id: nil,
            declaredEmploymentStatus: false,
            declaredSubcontractorsVerified: false,
            declaredInformationCorrect: true,
            declaredBy: null,
            declaredAt: new Date("2025-10-10T10:00:00Z"),
            releasedAt: null,
            deducted: 0
          }
        ])
        const [today] = yield* sql<{ today: string }>`SELECT current_date AS today`
        const registered = yield* sql<{ tenantId: string; registeredFrom: string | null }>`
          SELECT tenant_id, registered_from FROM tenant_settings ORDER BY tenant_id`
        expect(registered).toEqual([
          // From the first tax month it filed a return for.
          { tenantId: filer, registeredFrom: "2025-08-06" },
          // Never filed: from the day of the migration, as a registration first set then.
          { tenantId: newcomer, registeredFrom: today!.today },
          { tenantId: unregistered, registeredFrom: null }
        ])
        // A return must carry the declarations it needs.
        const undeclared = yield* Effect.either(
          sql`UPDATE monthly_returns SET declared_information_correct = false WHERE id = ${nil}`
        )
        expect(undeclared._tag).toBe("Left")
      })
  )
})
