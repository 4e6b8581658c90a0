import { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { ContactId, MonthlyReturnId, ReceivedStatementId, TenantId } from "@cisbook/core/Ids"
import {
  ReceivedStatement,
  StatementContact,
  StatementContractor,
  StatementSource
} from "@cisbook/core/statements/ReceivedStatement"
import { ReceivedStatementRepo } from "@cisbook/core/statements/ReceivedStatementRepo"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"

const Row = Schema.Struct({
  tenantId: TenantId,
  id: ReceivedStatementId,
  sourceTenantId: TenantId,
  sourceReturnId: MonthlyReturnId,
  sourceContactId: ContactId,
  contractorTenantCode: TenantCode,
  contractorName: Schema.String,
  employerReference: Schema.NullOr(Schema.String),
  contactId: ContactId,
  contactCode: Schema.String,
  periodEnd: Schema.String,
  taxTreatment: TaxTreatment,
  verificationNumber: Schema.NullOr(Schema.String),
  grossAmount: Schema.Number,
  materials: Schema.Number,
  deducted: Schema.Number,
  receivedAt: Schema.DateFromSelf
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))

const PdfRow = Schema.Struct({ pdf: Schema.Uint8ArrayFromSelf })
const decodePdf = Schema.decodeUnknown(Schema.Array(PdfRow))

const columns = `tenant_id, id, source_tenant_id, source_return_id, source_contact_id, contractor_tenant_code,
  contractor_name, employer_reference, contact_id, contact_code, period_end, tax_treatment, verification_number,
  gross_amount, materials, deducted, received_at`

const fromRow = (row: typeof Row.Type) =>
  new ReceivedStatement({
    id: row.id,
    tenantId: row.tenantId,
    source: new StatementSource({
      tenantId: row.sourceTenantId,
      monthlyReturnId: row.sourceReturnId,
      contactId: row.sourceContactId
    }),
    contractor: new StatementContractor({
      tenantCode: row.contractorTenantCode,
      name: row.contractorName,
      employerReference: row.employerReference
    }),
    contact: new StatementContact({ id: row.contactId, code: row.contactCode }),
    periodEnd: row.periodEnd,
    taxTreatment: row.taxTreatment,
    verificationNumber: row.verificationNumber,
    grossAmount: row.grossAmount,
    materials: row.materials,
    deducted: row.deducted,
    receivedAt: row.receivedAt
  })

export const ReceivedStatementRepoSql = Layer.effect(
  ReceivedStatementRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const read = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      )

    return ReceivedStatementRepo.of({
      // A statement of the same source already there is left as it is: the first one stays.
      insert: (s, pdf) =>
        sql`
          INSERT INTO received_statements ${sql.insert({
            tenantId: s.tenantId,
            id: s.id,
            sourceTenantId: s.source.tenantId,
            sourceReturnId: s.source.monthlyReturnId,
            sourceContactId: s.source.contactId,
            contractorTenantCode: s.contractor.tenantCode,
            contractorName: s.contractor.name,
            employerReference: s.contractor.employerReference,
            contactId: s.contact.id,
            contactCode: s.contact.code,
            periodEnd: s.periodEnd,
            taxTreatment: s.taxTreatment,
            verificationNumber: s.verificationNumber,
            grossAmount: s.grossAmount,
            materials: s.materials,
            deducted: s.deducted,
            pdf,
            receivedAt: s.receivedAt
          })}
          ON CONFLICT ON CONSTRAINT received_statements_source_key DO NOTHING
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      list: (tenantId, { from, to }) =>
        read(sql`
          SELECT ${sql.literal(columns)} FROM received_statements
          WHERE tenant_id = ${tenantId}
            ${from === null ? sql`` : sql`AND period_end >= ${from}`}
            ${to === null ? sql`` : sql`AND period_end <= ${to}`}
          ORDER BY period_end DESC, received_at DESC, id`),
      find: (tenantId, id) =>
        read(
          sql`SELECT ${sql.literal(columns)} FROM received_statements WHERE tenant_id = ${tenantId} AND id = ${id}`
        ).pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),
      pdf: (tenantId, id) =>
        sql`SELECT pdf FROM received_statements WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
          Effect.flatMap(decodePdf),
          Effect.map((rows) => Option.fromNullable(rows[0]?.pdf)),
          Effect.orDie
        )
    })
  })
)
