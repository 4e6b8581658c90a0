import type { InvoiceMembers } from "@cisbook/core/invoices/Invoice"
import type { InvoiceStore } from "@cisbook/core/invoices/InvoiceStore"
import type { TenantId } from "@cisbook/core/Ids"
import { type SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { uniqueWrite } from "./UniqueWrite.js"

const InvoiceKey = Schema.Struct({ tenantId: Schema.String, id: Schema.String })
const decodeCount = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ totalCount: Schema.Number })))

/** What makes a table of invoices a side's: its name, its model and the columns only it has. */
export interface InvoiceTable<Invoice, Encoded> {
  readonly table: "sales_invoices" | "purchase_invoices"
  readonly model: Schema.Schema<Invoice, Encoded>
  /** The side's own columns (snake case), read and written beside every invoice's. */
  readonly ownColumns: ReadonlyArray<string>
  /** The values of the side's own columns, by camel-case name. */
  readonly ownValues: (invoice: Invoice) => Record<string, unknown>
}

/**
 * The store of one side's invoices over its table. The contact's code comes with each invoice
 * (`contact_code`): it never changes while the invoice exists.
 */
export const invoiceStoreSql = <Invoice extends InvoiceMembers<Id>, Id extends string, Encoded>(
  sql: SqlClient.SqlClient,
  side: InvoiceTable<Invoice, Encoded>
) => {
  const numberWrite = uniqueWrite(sql, { [`${side.table}_number_key`]: "number" })
  const columns = sql.literal(`
    i.tenant_id, i.id, i.number, i.contact_id, c.code AS contact_code, i.issue_date, i.due_date, i.reference,
    i.subtotal, i.vat, i.cis_deduction, ${side.ownColumns.map((column) => `i.${column}, `).join("")}i.created_at`)
  const table = sql.literal(side.table)
  const fromInvoices = sql.literal(
    `${side.table} i JOIN contacts c ON c.tenant_id = i.tenant_id AND c.id = i.contact_id`
  )
  const decodeInvoices = Schema.decodeUnknown(Schema.Array(side.model))

  const findById = SqlSchema.findOne({
    Request: InvoiceKey,
    Result: side.model,
    execute: ({ id, tenantId }) =>
      sql`SELECT ${columns} FROM ${fromInvoices} WHERE i.tenant_id = ${tenantId} AND i.id = ${id}`
  })
  // Locks the invoice's row only: the contact is not changed by what the lock is for.
  const findByIdForUpdate = SqlSchema.findOne({
    Request: InvoiceKey,
    Result: side.model,
    execute: ({ id, tenantId }) =>
      sql`SELECT ${columns} FROM ${fromInvoices} WHERE i.tenant_id = ${tenantId} AND i.id = ${id} FOR UPDATE OF i`
  })

  const store: InvoiceStore<Invoice, Id> = {
    insert: (invoice) =>
      sql`INSERT INTO ${table} ${sql.insert({
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
        ...side.ownValues(invoice),
        createdAt: invoice.createdAt
      })}`.pipe(Effect.asVoid, numberWrite),
    findById: (tenantId, id) => Effect.orDie(findById({ tenantId, id })),
    list: (tenantId, query) =>
      Effect.gen(function* () {
        const contact = query.contactId === null ? sql`` : sql`AND i.contact_id = ${query.contactId}`
        const [{ totalCount }] = yield* decodeCount(
          yield* sql`SELECT count(*) AS total_count FROM ${table} i WHERE i.tenant_id = ${tenantId} ${contact}`
        )
        const rows = yield* sql`
          SELECT ${columns} FROM ${fromInvoices}
          WHERE i.tenant_id = ${tenantId} ${contact}
          ORDER BY i.issue_date DESC, i.created_at DESC, i.id DESC
          LIMIT ${query.limit} OFFSET ${query.offset}`
        return { items: yield* decodeInvoices(rows), totalCount }
      }).pipe(Effect.orDie)
  }

  return {
    ...store,
    findByIdForUpdate: (tenantId: TenantId, id: Id) => Effect.orDie(findByIdForUpdate({ tenantId, id })),
    /** The invoices joined with their contacts (`i`, `c`), for a side's own queries. */
    fromInvoices
  } as const
}
