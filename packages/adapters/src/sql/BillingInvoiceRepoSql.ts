import { BillingInvoice, BillingInvoiceLine } from "@cisbook/core/billing/billinginvoices/BillingInvoice"
import { numberedInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { BillingUsage, UsageSubcontractor } from "@cisbook/core/billing/billinginvoices/BillingUsage"
import { InvoicePaymentStatus } from "@cisbook/core/billing/billinginvoices/InvoicePaymentStatus"
import { BillingInvoiceId, MonthlyReturnId, TenantId, UserId } from "@cisbook/core/Ids"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { leaseClaim } from "./LeaseClaim.js"

/** The invoice columns as read, of the table under `alias` (the claim's UPDATE ... FROM has two with user_id and id). */
const invoiceColumnsOf = (alias: string) => `${alias}.user_id, ${alias}.id, ${alias}.number,
  ${alias}.issue_date::text AS issue_date, ${alias}.period_start::text AS period_start,
  ${alias}.period_end::text AS period_end, ${alias}.currency, ${alias}.subtotal, ${alias}.vat, ${alias}.total,
  ${alias}.payment_status, ${alias}.payment_reference, ${alias}.mandate_reference,
  ${alias}.pdf IS NOT NULL AS has_pdf, ${alias}.finished_at IS NOT NULL AS finished,
  ${alias}.failed_at, ${alias}.payment_retries, ${alias}.payment_read_at`

const InvoiceRow = Schema.Struct({
  userId: UserId,
  id: BillingInvoiceId,
  number: Schema.String,
  issueDate: Schema.String,
  periodStart: Schema.String,
  periodEnd: Schema.String,
  currency: Schema.Literal("GBP"),
  subtotal: Schema.Number,
  vat: Schema.Number,
  total: Schema.Number,
  paymentStatus: InvoicePaymentStatus,
  paymentReference: Schema.NullOr(Schema.String),
  mandateReference: Schema.NullOr(Schema.String),
  hasPdf: Schema.Boolean,
  finished: Schema.Boolean,
  failedAt: Schema.NullOr(Schema.DateFromSelf),
  paymentRetries: Schema.Number,
  paymentReadAt: Schema.NullOr(Schema.DateFromSelf)
})
const decodeInvoices = Schema.decodeUnknown(Schema.Array(InvoiceRow))

const LineRow = Schema.Struct({
  invoiceId: BillingInvoiceId,
  description: Schema.String,
  tenantId: TenantId,
  tenantCode: Schema.String,
  returnId: MonthlyReturnId,
  quantity: Schema.Number,
  unitPrice: Schema.Number,
  amount: Schema.Number
})
const decodeLines = Schema.decodeUnknown(Schema.Array(LineRow))

/** The subcontractors on a return's lines jsonb (the lines' other members are not read). */
const Subcontractors = Schema.Array(Schema.Struct({ contactCode: Schema.String, name: Schema.String }))

const UsageRow = Schema.Struct({
  returnId: MonthlyReturnId,
  tenantId: TenantId,
  tenant: Schema.String,
  tenantName: Schema.String,
  periodEnd: Schema.String,
  acceptedAt: Schema.DateFromSelf,
  lines: Schema.Union(Subcontractors, Schema.parseJson(Subcontractors))
})
const decodeUsage = Schema.decodeUnknown(Schema.Array(UsageRow))

const ClaimedRow = Schema.Struct({
  returnId: MonthlyReturnId,
  tenantId: TenantId,
  tenant: Schema.String,
  tenantName: Schema.String,
  periodEnd: Schema.String,
  subcontractors: Schema.Number
})
const decodeClaimed = Schema.decodeUnknown(Schema.Array(ClaimedRow))

// The rows were decoded by InvoiceRow, which checks what the class would: not validated twice.
const toInvoice = (row: typeof InvoiceRow.Type) => new BillingInvoice(row, true)
const toLine = ({ invoiceId: _, tenantCode, ...row }: typeof LineRow.Type) =>
  new BillingInvoiceLine({ ...row, tenant: tenantCode })

/**
 * Accepted returns nobody has invoiced, of tenants the user owns, filed for real (one sent as a
 * test, GatewayTest, was filed nowhere): the same rows for usage and claim.
 */
const uninvoicedOwnedBy = (sql: SqlClient.SqlClient, userId: string) => sql`
  r.tenant_id = m.tenant_id AND m.user_id = ${userId} AND m.role = 'Owner' AND t.id = m.tenant_id
  AND r.status = 'Accepted' AND NOT r.gateway_test AND r.billing_invoice_id IS NULL`

export const BillingInvoiceRepoSql = Layer.effect(
  BillingInvoiceRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(invoiceColumnsOf("billing_invoices"))
    const leases = leaseClaim(sql, {
      table: "billing_invoices",
      alias: "i",
      key: ["user_id", "id"],
      token: false,
      due: () => sql`i.finished_at IS NULL`,
      order: "i.seq",
      returning: () => sql.literal(invoiceColumnsOf("i"))
    })

    const linesOf = (keys: ReadonlyArray<{ readonly userId: string; readonly id: string }>) =>
      keys.length === 0
        ? Effect.succeed(new Map<string, Array<BillingInvoiceLine>>())
        : sql`
            SELECT invoice_id, description, tenant_id, tenant_code, return_id, quantity, unit_price, amount
            FROM billing_invoice_lines
            WHERE user_id IN ${sql.in(keys.map((k) => k.userId))} AND invoice_id IN ${sql.in(keys.map((k) => k.id))}
            ORDER BY invoice_id, position`.pipe(
            Effect.flatMap(decodeLines),
            Effect.map((rows) => {
              const byInvoice = new Map<string, Array<BillingInvoiceLine>>()
              for (const row of rows) {
                const lines = byInvoice.get(row.invoiceId) ?? []
                lines.push(toLine(row))
                byInvoice.set(row.invoiceId, lines)
              }
              return byInvoice
            })
          )

    return BillingInvoiceRepo.of({
      usage: (userId) =>
        sql`
          SELECT r.id AS return_id, r.tenant_id, t.code AS tenant, t.name AS tenant_name,
            r.period_end::text AS period_end, r.accepted_at, r.lines
          FROM memberships m, tenants t, monthly_returns r
          WHERE ${uninvoicedOwnedBy(sql, userId)}
          ORDER BY r.period_end, t.code, r.id`.pipe(
          Effect.flatMap(decodeUsage),
          Effect.map((rows) =>
            rows.map(
              ({ lines, ...row }) =>
                new BillingUsage({
                  ...row,
                  subcontractors: lines.map((l) => new UsageSubcontractor({ contactCode: l.contactCode, name: l.name }))
                })
            )
          ),
          Effect.orDie
        ),
      usersWithUsage: sql<{ readonly userId: UserId }>`
        SELECT DISTINCT m.user_id FROM monthly_returns r
        JOIN memberships m ON m.tenant_id = r.tenant_id AND m.role = 'Owner'
        WHERE r.status = 'Accepted' AND NOT r.gateway_test AND r.billing_invoice_id IS NULL
        ORDER BY m.user_id`.pipe(
        Effect.map((rows) => rows.map((row) => row.userId)),
        Effect.orDie
      ),
      // Under READ COMMITTED a racing run's UPDATE waits for this one's row locks, then re-checks
      // billing_invoice_id IS NULL and passes over every return this one claimed.
      claimUsage: (userId, invoiceId) =>
        sql`
          UPDATE monthly_returns r SET billing_invoice_id = ${invoiceId}
          FROM memberships m, tenants t
          WHERE ${uninvoicedOwnedBy(sql, userId)}
          RETURNING r.id AS return_id, r.tenant_id, t.code AS tenant, t.name AS tenant_name,
            r.period_end::text AS period_end, jsonb_array_length(r.lines) AS subcontractors`.pipe(
          Effect.flatMap(decodeClaimed),
          Effect.orDie
        ),
      insert: (draft, at) =>
        Effect.gen(function* () {
          const [next] = yield* sql<{ readonly seq: number }>`SELECT nextval('billing_invoice_number_seq') AS seq`
          const seq = next!.seq
          const invoice = numberedInvoice(draft, seq)
          yield* sql`INSERT INTO billing_invoices ${sql.insert({
            userId: invoice.userId,
            id: invoice.id,
            seq,
            number: invoice.number,
            issueDate: invoice.issueDate,
            periodStart: invoice.periodStart,
            periodEnd: invoice.periodEnd,
            subtotal: invoice.subtotal,
            vat: invoice.vat,
            total: invoice.total,
            paymentStatus: invoice.paymentStatus,
            createdAt: at
          })}`
          yield* sql`INSERT INTO billing_invoice_lines ${sql.insert(
            draft.lines.map((line, position) => ({
              userId: invoice.userId,
              invoiceId: invoice.id,
              position,
              tenantId: line.tenantId,
              tenantCode: line.tenant,
              returnId: line.returnId,
              description: line.description,
              quantity: line.quantity,
              unitPrice: line.unitPrice,
              amount: line.amount
            }))
          )}`
          return invoice
        }).pipe(Effect.orDie),
      claimUnfinished: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const rows = yield* leases.claim({ now, leaseUntil, limit, token: null }).pipe(Effect.flatMap(decodeInvoices))
          const lines = yield* linesOf(rows)
          return rows
            .map((row) => ({ invoice: toInvoice(row), lines: lines.get(row.id) ?? [] }))
            .sort((a, b) => a.invoice.number.localeCompare(b.invoice.number))
        }).pipe(Effect.orDie),
      storePdf: (userId, id, pdf) =>
        sql`UPDATE billing_invoices SET pdf = ${Buffer.from(pdf)} WHERE user_id = ${userId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      recordCollection: (userId, id, c, finish) =>
        (finish
          ? sql`
              UPDATE billing_invoices SET payment_status = ${c.paymentStatus}, payment_reference = ${c.paymentReference},
                mandate_reference = ${c.mandateReference}, finished_at = now(), ${leases.release}
              WHERE user_id = ${userId} AND id = ${id}`
          : sql`
              UPDATE billing_invoices SET payment_status = ${c.paymentStatus}, payment_reference = ${c.paymentReference},
                mandate_reference = ${c.mandateReference}
              WHERE user_id = ${userId} AND id = ${id}`
        ).pipe(Effect.asVoid, Effect.orDie),
      recordPutForward: (userId, id, c) =>
        sql`
          UPDATE billing_invoices SET payment_status = ${c.paymentStatus}, payment_reference = ${c.paymentReference},
            mandate_reference = ${c.mandateReference}
          WHERE user_id = ${userId} AND id = ${id} AND finished_at IS NOT NULL
            AND payment_status IN ('WaitingForMandate', 'Cancelled')
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      list: (userId) =>
        sql`SELECT ${columns} FROM billing_invoices WHERE user_id = ${userId} ORDER BY issue_date DESC, seq DESC`.pipe(
          Effect.flatMap(decodeInvoices),
          Effect.map((rows) => rows.map(toInvoice)),
          Effect.orDie
        ),
      find: (userId, id) =>
        Effect.gen(function* () {
          const rows =
            yield* sql`SELECT ${columns} FROM billing_invoices WHERE user_id = ${userId} AND id = ${id}`.pipe(
              Effect.flatMap(decodeInvoices)
            )
          const row = rows[0]
          if (row === undefined) return Option.none()
          const lines = yield* linesOf([row])
          return Option.some({ invoice: toInvoice(row), lines: lines.get(row.id) ?? [] })
        }).pipe(Effect.orDie),
      findByPaymentReference: (reference) =>
        sql`SELECT ${columns} FROM billing_invoices WHERE payment_reference = ${reference}`.pipe(
          Effect.flatMap(decodeInvoices),
          Effect.map((rows) => Option.fromNullable(rows[0]).pipe(Option.map(toInvoice))),
          Effect.orDie
        ),
      movePaymentStatus: (invoice, from, to, at) =>
        sql`
          UPDATE billing_invoices SET payment_status = ${to}, payment_read_at = ${at},
            failed_at = CASE WHEN ${to} = 'Failed' THEN ${at}::timestamptz ELSE failed_at END
          WHERE user_id = ${invoice.userId} AND id = ${invoice.id} AND payment_status = ${from}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      // The rows are locked in id order first: listings of one user at once (tabs, retries)
      // update the same rows, and two updates taking them in different orders deadlock.
      recordPaymentsRead: (userId, ids, at) =>
        ids.length === 0
          ? Effect.void
          : sql`
              UPDATE billing_invoices SET payment_read_at = ${at}
              WHERE user_id = ${userId} AND id IN (
                SELECT id FROM billing_invoices WHERE user_id = ${userId} AND id IN ${sql.in(ids)}
                ORDER BY id FOR UPDATE
              )`.pipe(Effect.asVoid, Effect.orDie),
      failedInvoices: sql`
          SELECT ${columns} FROM billing_invoices
          WHERE payment_status = 'Failed' AND finished_at IS NOT NULL
          ORDER BY seq`.pipe(
        Effect.flatMap(decodeInvoices),
        Effect.map((rows) => rows.map(toInvoice)),
        Effect.orDie
      ),
      recordRetry: (invoice, to) =>
        sql`
          UPDATE billing_invoices SET payment_status = ${to}, payment_retries = payment_retries + 1
          WHERE user_id = ${invoice.userId} AND id = ${invoice.id} AND payment_status = 'Failed'
            AND payment_retries = ${invoice.paymentRetries}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      waitingForCollection: (userId) =>
        sql`
          SELECT ${columns} FROM billing_invoices
          WHERE user_id = ${userId} AND finished_at IS NOT NULL AND payment_status IN ('WaitingForMandate', 'Cancelled')
          ORDER BY seq`.pipe(
          Effect.flatMap(decodeInvoices),
          Effect.map((rows) => rows.map(toInvoice)),
          Effect.orDie
        ),
      pdf: (userId, id) =>
        sql<{ readonly pdf: Uint8Array | null }>`
          SELECT pdf FROM billing_invoices WHERE user_id = ${userId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.pdf).pipe(Option.map((pdf) => new Uint8Array(pdf)))),
          Effect.orDie
        )
    })
  })
)
