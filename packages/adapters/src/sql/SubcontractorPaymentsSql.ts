import type { TenantId } from "@cisbook/core/Ids"
import { SubcontractorPayments, type SubcontractorPayment } from "@cisbook/core/returns/SubcontractorPayments"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"

/**
 * The tenant's payments dated from `from` to `to` with their bills and contacts. The payments come
 * from purchase_invoice_payments_date_idx alone; then only the bills they pay are looked up, by
 * primary key (one probe per bill, not per payment), with their contacts. Joined directly, the
 * planner hashed every bill the tenant ever had (in parallel workers), a month's draft reading a
 * year of bills. The CTEs also keep the plan serial. The columns are named as the rows' fields, to
 * be read without transform: no name of the thousands of rows is mapped.
 */
export const paymentsBetween = (sql: SqlClient.SqlClient, tenantId: TenantId, from: string, to: string) =>
  sql<SubcontractorPayment>`
    WITH paid AS MATERIALIZED (
      SELECT id, invoice_id, date, amount, gross_amount, materials, deducted
      FROM purchase_invoice_payments
      WHERE tenant_id = ${tenantId} AND date BETWEEN ${from} AND ${to}
    ), bills AS MATERIALIZED (
      SELECT i.id, i.number, i.contact_id, i.tax_treatment, c.code
      FROM purchase_invoices i
      JOIN contacts c ON c.tenant_id = i.tenant_id AND c.id = i.contact_id
      WHERE i.tenant_id = ${tenantId} AND i.id = ANY(ARRAY(SELECT DISTINCT invoice_id FROM paid))
        AND i.tax_treatment IS NOT NULL
    )
    SELECT b.contact_id AS "contactId", b.code AS "contactCode", b.id AS "purchaseInvoiceId",
      b.number AS "invoiceNumber", p.id AS "paymentId", p.date, p.amount, p.gross_amount AS "grossAmount",
      p.materials, p.deducted, b.tax_treatment AS "taxTreatment"
    FROM paid p
    JOIN bills b ON b.id = p.invoice_id
    ORDER BY b.code, p.date, p.id`

/** The payments of CIS subcontractors' bills (a purchase invoice with a treatment) over the purchase invoice tables. */
export const SubcontractorPaymentsSql = Layer.effect(
  SubcontractorPayments,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SubcontractorPayments.of({
      // A draft reads thousands of rows: the columns' types already give the row's shape.
      between: (tenantId, from, to) => paymentsBetween(sql, tenantId, from, to).withoutTransform.pipe(Effect.orDie)
    })
  )
)
