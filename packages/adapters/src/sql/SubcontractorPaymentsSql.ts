import { SubcontractorPayments, type SubcontractorPayment } from "@cisbook/core/returns/SubcontractorPayments"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"

/**
 * The payments of CIS subcontractors' bills (a purchase invoice with a treatment) over the
 * purchase invoice tables: the month's payments come from purchase_invoice_payments_date_idx,
 * their bills and contacts by primary key.
 */
export const SubcontractorPaymentsSql = Layer.effect(
  SubcontractorPayments,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SubcontractorPayments.of({
      // A draft reads thousands of rows: the columns' types already give the row's shape.
      between: (tenantId, from, to) =>
        sql<SubcontractorPayment>`
          SELECT i.contact_id, c.code AS contact_code, i.id AS purchase_invoice_id, i.number AS invoice_number,
            p.id AS payment_id, p.date, p.amount, p.gross_amount, p.materials, p.deducted, i.tax_treatment
          FROM purchase_invoice_payments p
          JOIN purchase_invoices i ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id
          JOIN contacts c ON c.tenant_id = i.tenant_id AND c.id = i.contact_id
          WHERE p.tenant_id = ${tenantId} AND p.date BETWEEN ${from} AND ${to} AND i.tax_treatment IS NOT NULL
          ORDER BY c.code, p.date, p.id`.pipe(Effect.orDie)
    })
  )
)
