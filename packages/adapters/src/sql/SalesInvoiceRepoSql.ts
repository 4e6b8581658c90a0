import { SalesInvoice, SalesInvoicePayment } from "@cisbook/core/invoices/SalesInvoice"
import { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { reportedPayment, reportedPaymentColumns, type ReportedPaymentRow } from "./InvoiceRows.js"
import { uniqueWrite } from "./UniqueWrite.js"

const InvoiceKey = Schema.Struct({ tenantId: Schema.String, id: Schema.String })
const decodeSequence = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ lastSequence: Schema.Number })))
const decodeCount = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ totalCount: Schema.Number })))
const decodeInvoices = Schema.decodeUnknown(Schema.Array(SalesInvoice))

// The customer's code comes with the invoice: it never changes while the invoice exists.
const invoiceColumns = `
  i.tenant_id, i.id, i.number, i.contact_id, c.code AS contact_code, i.issue_date, i.due_date, i.reference,
  i.subtotal, i.vat, i.cis_deduction, i.amount_paid, i.created_at`
const withContact = "sales_invoices i JOIN contacts c ON c.tenant_id = i.tenant_id AND c.id = i.contact_id"

export const SalesInvoiceRepoSql = Layer.effect(
  SalesInvoiceRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const numberWrite = uniqueWrite(sql, { sales_invoices_number_key: "number" })
    const columns = sql.literal(invoiceColumns)
    const fromInvoices = sql.literal(withContact)

    const findById = SqlSchema.findOne({
      Request: InvoiceKey,
      Result: SalesInvoice,
      execute: ({ id, tenantId }) =>
        sql`SELECT ${columns} FROM ${fromInvoices} WHERE i.tenant_id = ${tenantId} AND i.id = ${id}`
    })
    // Locks the invoice's row only: the contact is not changed by a payment.
    const findByIdForUpdate = SqlSchema.findOne({
      Request: InvoiceKey,
      Result: SalesInvoice,
      execute: ({ id, tenantId }) =>
        sql`SELECT ${columns} FROM ${fromInvoices} WHERE i.tenant_id = ${tenantId} AND i.id = ${id} FOR UPDATE OF i`
    })
    const payments = SqlSchema.findAll({
      Request: InvoiceKey,
      Result: SalesInvoicePayment,
      execute: ({ id, tenantId }) => sql`
        SELECT tenant_id, id, invoice_id, date, amount, cis_deduction, reference, created_at
        FROM sales_invoice_payments
        WHERE tenant_id = ${tenantId} AND invoice_id = ${id}
        ORDER BY created_at, id`
    })
    // The report reads thousands of rows: the columns' types already give the row's shape.
    const paymentsBetween = (tenantId: string, from: string, to: string) => sql<ReportedPaymentRow>`
      SELECT ${sql.literal(reportedPaymentColumns)}
      FROM sales_invoice_payments p JOIN ${fromInvoices} ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id
      WHERE p.tenant_id = ${tenantId} AND p.date BETWEEN ${from} AND ${to}
      ORDER BY p.date, p.id`

    return SalesInvoiceRepo.of({
      nextSequence: (tenantId) =>
        sql`
          INSERT INTO sales_invoice_sequences AS s (tenant_id, last_sequence) VALUES (${tenantId}, 1)
          ON CONFLICT (tenant_id) DO UPDATE SET last_sequence = s.last_sequence + 1
          RETURNING last_sequence`.pipe(
          Effect.flatMap(decodeSequence),
          Effect.map(([row]) => row.lastSequence),
          Effect.orDie
        ),
      claimSequence: (tenantId, sequence) =>
        sql`
          INSERT INTO sales_invoice_sequences AS s (tenant_id, last_sequence) VALUES (${tenantId}, ${sequence})
          ON CONFLICT (tenant_id) DO UPDATE SET last_sequence = greatest(s.last_sequence, excluded.last_sequence)`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      insert: (invoice) =>
        sql`INSERT INTO sales_invoices ${sql.insert({
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
          amountPaid: invoice.amountPaid,
          createdAt: invoice.createdAt
        })}`.pipe(Effect.asVoid, numberWrite),
      findById: (tenantId, id) => Effect.orDie(findById({ tenantId, id })),
      findByIdForUpdate: (tenantId, id) => Effect.orDie(findByIdForUpdate({ tenantId, id })),
      list: (tenantId, query) =>
        Effect.gen(function* () {
          const contact = query.contactId === null ? sql`` : sql`AND i.contact_id = ${query.contactId}`
          const [{ totalCount }] = yield* decodeCount(
            yield* sql`SELECT count(*) AS total_count FROM sales_invoices i WHERE i.tenant_id = ${tenantId} ${contact}`
          )
          const rows = yield* sql`
            SELECT ${columns} FROM ${fromInvoices}
            WHERE i.tenant_id = ${tenantId} ${contact}
            ORDER BY i.issue_date DESC, i.created_at DESC, i.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
          return { items: yield* decodeInvoices(rows), totalCount }
        }).pipe(Effect.orDie),
      payments: (tenantId, invoiceId) => Effect.orDie(payments({ tenantId, id: invoiceId })),
      addPayment: (payment) =>
        sql`INSERT INTO sales_invoice_payments ${sql.insert({
          tenantId: payment.tenantId,
          id: payment.id,
          invoiceId: payment.invoiceId,
          date: payment.date,
          amount: payment.amount,
          cisDeduction: payment.cisDeduction,
          reference: payment.reference,
          createdAt: payment.createdAt
        })}`.pipe(
          Effect.zipRight(sql`
            UPDATE sales_invoices SET amount_paid = amount_paid + ${payment.amount}
            WHERE tenant_id = ${payment.tenantId} AND id = ${payment.invoiceId}`),
          sql.withTransaction,
          Effect.asVoid,
          Effect.orDie
        ),
      paymentsBetween: (tenantId, from, to) =>
        paymentsBetween(tenantId, from, to).pipe(
          Effect.map((rows) => rows.map(reportedPayment)),
          Effect.orDie
        )
    })
  })
)
