import { PurchaseInvoice, PurchaseInvoicePayment } from "@cisbook/core/invoices/PurchaseInvoice"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { invoiceStoreSql } from "./InvoiceStoreSql.js"

const InvoiceKey = Schema.Struct({ tenantId: Schema.String, id: Schema.String })

export const PurchaseInvoiceRepoSql = Layer.effect(
  PurchaseInvoiceRepo,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const { findById, findByIdForUpdate, insert, list } = invoiceStoreSql(sql, {
      table: "purchase_invoices",
      model: PurchaseInvoice,
      ownColumns: ["materials", "tax_treatment", "amount_paid"],
      ownValues: (invoice) => ({
        materials: invoice.materials,
        taxTreatment: invoice.taxTreatment,
        amountPaid: invoice.amountPaid
      })
    })
    const payments = SqlSchema.findAll({
      Request: InvoiceKey,
      Result: PurchaseInvoicePayment,
      execute: ({ id, tenantId }) => sql`
        SELECT tenant_id, id, invoice_id, date, amount, gross_amount, materials, deducted, reference, created_at
        FROM purchase_invoice_payments
        WHERE tenant_id = ${tenantId} AND invoice_id = ${id}
        ORDER BY created_at, id`
    })
    return PurchaseInvoiceRepo.of({
      insert,
      findById,
      findByIdForUpdate,
      list,
      payments: (tenantId, invoiceId) => Effect.orDie(payments({ tenantId, id: invoiceId })),
      addPayment: (payment) =>
        sql`INSERT INTO purchase_invoice_payments ${sql.insert({
          tenantId: payment.tenantId,
          id: payment.id,
          invoiceId: payment.invoiceId,
          date: payment.date,
          amount: payment.amount,
          grossAmount: payment.grossAmount,
          materials: payment.materials,
          deducted: payment.deducted,
          reference: payment.reference,
          createdAt: payment.createdAt
        })}`.pipe(
          Effect.zipRight(sql`
            UPDATE purchase_invoices SET amount_paid = amount_paid + ${payment.amount}
            WHERE tenant_id = ${payment.tenantId} AND id = ${payment.invoiceId}`),
          sql.withTransaction,
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
