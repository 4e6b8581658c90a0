import { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { uniqueWrite } from "./UniqueWrite.js"

const decodeCount = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ totalCount: Schema.Number })))
const decodeInvoices = Schema.decodeUnknown(Schema.Array(PurchaseInvoice))

// The supplier's code comes with the invoice: it never changes while the invoice exists.
const invoiceColumns = `
  i.tenant_id, i.id, i.number, i.contact_id, c.code AS contact_code, i.issue_date, i.due_date, i.reference,
  i.subtotal, i.vat, i.cis_deduction, i.created_at`
const withContact = "purchase_invoices i JOIN contacts c ON c.tenant_id = i.tenant_id AND c.id = i.contact_id"

export const PurchaseInvoiceRepoSql = Layer.effect(
  PurchaseInvoiceRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const numberWrite = uniqueWrite(sql, { purchase_invoices_number_key: "number" })
    const columns = sql.literal(invoiceColumns)
    const from = sql.literal(withContact)

    const findById = SqlSchema.findOne({
      Request: Schema.Struct({ tenantId: Schema.String, id: Schema.String }),
      Result: PurchaseInvoice,
      execute: ({ id, tenantId }) =>
        sql`SELECT ${columns} FROM ${from} WHERE i.tenant_id = ${tenantId} AND i.id = ${id}`
    })

    return PurchaseInvoiceRepo.of({
      insert: (invoice) =>
        sql`INSERT INTO purchase_invoices ${sql.insert({
          tenantId: invoice.tenantId,
          id: invoice.id,
          number: invoice.number,
          contactId: invoice.contactId,
          issueDate: invoice.issueDate,
          dueDate: invoice.dueDate,
          reference: invoice.reference,
          subtotal: invoice.subtotal,
          vat: invoice.vat,
          cisDeduction: invoice.cisDeduction,
          createdAt: invoice.createdAt
        })}`.pipe(Effect.asVoid, numberWrite),
      findById: (tenantId, id) => Effect.orDie(findById({ tenantId, id })),
      list: (tenantId, query) =>
        Effect.gen(function* () {
          const contact = query.contactId === null ? sql`` : sql`AND i.contact_id = ${query.contactId}`
          const [{ totalCount }] = yield* decodeCount(
            yield* sql`SELECT count(*) AS total_count FROM purchase_invoices i WHERE i.tenant_id = ${tenantId} ${contact}`
          )
          const rows = yield* sql`
            SELECT ${columns} FROM ${from}
            WHERE i.tenant_id = ${tenantId} ${contact}
            ORDER BY i.issue_date DESC, i.created_at DESC, i.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
          return { items: yield* decodeInvoices(rows), totalCount }
        }).pipe(Effect.orDie)
    })
  })
)
