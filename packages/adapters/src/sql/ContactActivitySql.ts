import { ContactActivity } from "@cisbook/core/contacts/ContactActivity"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"

const decodeExists = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ exists: Schema.Boolean })))

export const ContactActivitySql = Layer.effect(
  ContactActivity,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const answer = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(
        Effect.flatMap(decodeExists),
        Effect.map(([row]) => row.exists),
        Effect.orDie
      )
    return ContactActivity.of({
      hasSalesInvoices: (tenantId, contactId) =>
        answer(sql`
          SELECT EXISTS (SELECT 1 FROM sales_invoices WHERE tenant_id = ${tenantId} AND contact_id = ${contactId})`),
      hasPurchaseInvoices: (tenantId, contactId) =>
        answer(sql`
          SELECT EXISTS (SELECT 1 FROM purchase_invoices WHERE tenant_id = ${tenantId} AND contact_id = ${contactId})`),
      hasConnections: (tenantId, contactId) =>
        answer(sql`
          SELECT EXISTS (SELECT 1 FROM connection_sides WHERE tenant_id = ${tenantId} AND contact_id = ${contactId})`)
    })
  })
)
