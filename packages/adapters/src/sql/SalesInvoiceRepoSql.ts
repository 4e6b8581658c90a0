import { ContactId } from "@cisbook/core/Ids"
import { SalesInvoice, SalesInvoicePayment } from "@cisbook/core/invoices/SalesInvoice"
import { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { reportedPayment, reportedPaymentColumns, type ReportedPaymentRow } from "./InvoiceRows.js"
import { invoiceStoreSql } from "./InvoiceStoreSql.js"

const InvoiceKey = Schema.Struct({ tenantId: Schema.String, id: Schema.String })
const decodeContactPayments = Schema.decodeUnknown(
  Schema.Array(Schema.Struct({ contactId: ContactId, ...SalesInvoicePayment.fields }))
)
const decodeSequence = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ lastSequence: Schema.Number })))

export const SalesInvoiceRepoSql = Layer.effect(
  SalesInvoiceRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { findById, findByIdForUpdate, fromInvoices, insert, list } = invoiceStoreSql(sql, {
      table: "sales_invoices",
      model: SalesInvoice,
      ownColumns: ["amount_paid"],
      ownValues: (invoice) => ({ amountPaid: invoice.amountPaid })
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
      insert,
      findById,
      findByIdForUpdate,
      list,
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
      // Through the customers' invoices (few), then each invoice's payments.
      paymentsFromContacts: (tenantId, contactIds, from, to) =>
        contactIds.length === 0
          ? Effect.succeed([])
          : sql`
              SELECT i.contact_id, p.tenant_id, p.id, p.invoice_id, p.date, p.amount, p.cis_deduction, p.reference,
                p.created_at
              FROM sales_invoices i
              JOIN sales_invoice_payments p ON p.tenant_id = i.tenant_id AND p.invoice_id = i.id
              WHERE i.tenant_id = ${tenantId} AND i.contact_id IN ${sql.in(contactIds)}
                AND p.date BETWEEN ${from} AND ${to}
              ORDER BY p.date, p.id`.pipe(
              Effect.flatMap(decodeContactPayments),
              Effect.map((rows) =>
                rows.map(({ contactId, ...payment }) => ({ contactId, payment: new SalesInvoicePayment(payment) }))
              ),
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
