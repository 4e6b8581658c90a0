import { MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type ClaimedReturn, MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import {
  HmrcReceipt,
  MonthlyReturn,
  MonthlyReturnStatus,
  ReturnContractor,
  ReturnLine
} from "@cisbook/core/returns/MonthlyReturn"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { leaseClaim } from "./LeaseClaim.js"
import { uniqueWrite } from "./UniqueWrite.js"

const Lines = Schema.Array(ReturnLine)

const ReturnRow = Schema.Struct({
  tenantId: TenantId,
  id: MonthlyReturnId,
  periodEnd: Schema.String,
  status: MonthlyReturnStatus,
  contractor: Schema.encodedSchema(ReturnContractor),
  lines: Schema.encodedSchema(Lines),
  nilReturn: Schema.Boolean,
  inactive: Schema.Boolean,
  submittedAt: Schema.DateFromSelf,
  acceptedAt: Schema.NullOr(Schema.DateFromSelf),
  rejectionReason: Schema.NullOr(Schema.String),
  heldReason: Schema.NullOr(Schema.String),
  invoiced: Schema.Boolean,
  correlationId: Schema.NullOr(Schema.String),
  irmark: Schema.NullOr(Schema.String),
  receiptMessage: Schema.NullOr(Schema.String),
  receiptAt: Schema.NullOr(Schema.DateFromSelf)
})
type ReturnRow = typeof ReturnRow.Type
const decodeRows = Schema.decodeUnknown(Schema.Array(ReturnRow))
const decodeClaimedRows = Schema.decodeUnknown(
  Schema.Array(
    Schema.extend(ReturnRow, Schema.Struct({ attempts: Schema.Number, responseEndpoint: Schema.NullOr(Schema.String) }))
  )
)
const decodeContractor = Schema.decodeSync(ReturnContractor)
const decodeLines = Schema.decodeSync(Lines)
const encodeContractor = Schema.encodeSync(ReturnContractor)
const encodeLines = Schema.encodeSync(Lines)

const returnColumns = `tenant_id, id, period_end, status, contractor, lines, nil_return, inactive, submitted_at, accepted_at,
  rejection_reason, held_reason, billing_invoice_id IS NOT NULL AS invoiced, correlation_id, irmark, receipt_message,
  receipt_at`

/** The same columns, qualified for the claim's UPDATE ... FROM, whose other table also has tenant_id and id. */
const claimedColumns = `r.tenant_id, r.id, r.period_end, r.status, r.contractor, r.lines, r.nil_return, r.inactive,
  r.submitted_at, r.accepted_at,
  r.rejection_reason, r.held_reason, r.billing_invoice_id IS NOT NULL AS invoiced, r.correlation_id, r.irmark,
  r.receipt_message, r.receipt_at, r.attempts, r.response_endpoint`

const fromRow = ({ correlationId, irmark, receiptAt, receiptMessage, ...row }: ReturnRow) =>
  new MonthlyReturn({
    ...row,
    contractor: decodeContractor(row.contractor),
    lines: decodeLines(row.lines),
    hmrcReceipt:
      row.status === "Accepted" && correlationId !== null && receiptMessage !== null && receiptAt !== null
        ? new HmrcReceipt({ correlationId, irmark: irmark ?? "", message: receiptMessage, receivedAt: receiptAt })
        : null
  })

export const MonthlyReturnRepoSql = Layer.effect(
  MonthlyReturnRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    const unique = uniqueWrite(sql, { monthly_returns_period_key: "period" })
    const leases = leaseClaim(sql, {
      table: "monthly_returns",
      alias: "r",
      key: ["tenant_id", "id"],
      token: true,
      due: (now) => sql`r.status = 'Submitted' AND r.next_attempt_at <= ${now}`,
      order: "r.next_attempt_at",
      returning: () => sql.literal(claimedColumns)
    })

    return MonthlyReturnRepo.of({
      insert: (r) =>
        unique(
          // The jsonb values go as JSON text (see EventOutboxSql).
          sql`INSERT INTO monthly_returns ${sql.insert({
            tenantId: r.tenantId,
            id: r.id,
            periodEnd: r.periodEnd,
            status: r.status,
            contractor: JSON.stringify(encodeContractor(r.contractor)),
            lines: JSON.stringify(encodeLines(r.lines)),
            nilReturn: r.nilReturn,
            inactive: r.inactive,
            submittedAt: r.submittedAt,
            nextAttemptAt: r.submittedAt
          })}`
        ).pipe(Effect.asVoid),
      find: (tenantId, id) =>
        sql`SELECT ${sql.literal(returnColumns)} FROM monthly_returns WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), fromRow)),
          Effect.orDie
        ),
      list: (tenantId) =>
        sql`SELECT ${sql.literal(returnColumns)} FROM monthly_returns WHERE tenant_id = ${tenantId}
            ORDER BY period_end DESC, submitted_at DESC, id DESC`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map(fromRow)),
          Effect.orDie
        ),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const rows = yield* leases.claim({ now, leaseUntil, limit, token })
          const claimed = yield* decodeClaimedRows(rows)
          return claimed.map(({ attempts, responseEndpoint, ...row }): ClaimedReturn => ({
            monthlyReturn: fromRow(row),
            attempts,
            leaseToken: token,
            sent:
              row.correlationId === null
                ? null
                : { correlationId: row.correlationId, endpoint: responseEndpoint, irmark: row.irmark }
          }))
        }).pipe(Effect.orDie),
      record: ({ leaseToken, monthlyReturn }, outcome) => {
        const where = sql`tenant_id = ${monthlyReturn.tenantId} AND id = ${monthlyReturn.id}
          AND status = 'Submitted' AND lease_token = ${leaseToken}`
        const set = (() => {
          switch (outcome._tag) {
            case "Retry":
              return sql`attempts = attempts + 1, next_attempt_at = ${outcome.nextAttemptAt}`
            case "Pending":
              return sql`next_attempt_at = ${outcome.nextAttemptAt}`
            case "Accepted":
              return sql`status = 'Accepted', accepted_at = ${outcome.at}, next_attempt_at = NULL,
                receipt_message = ${outcome.receipt.message}, receipt_at = ${outcome.receipt.receivedAt}`
            case "Rejected":
              return sql`status = 'Rejected', rejection_reason = ${outcome.reason}, next_attempt_at = NULL`
            case "Held":
              // Held, it keeps nothing of a sending: released, it is found at HMRC (taken) or sent again (refused).
              return sql`status = 'Held', held_reason = ${outcome.reason}, next_attempt_at = NULL, correlation_id = NULL,
                sent_at = NULL, response_endpoint = NULL, poll_interval_seconds = NULL, irmark = NULL`
          }
        })()
        return sql`UPDATE monthly_returns SET ${set}, ${leases.release} WHERE ${where} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
      },
      releaseHeld: (tenantId, at) =>
        sql`UPDATE monthly_returns SET status = 'Submitted', held_reason = NULL, attempts = 0, next_attempt_at = ${at}
            WHERE tenant_id = ${tenantId} AND status = 'Held'
            RETURNING ${sql.literal(returnColumns)}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map(fromRow)),
          Effect.orDie
        ),
      recordSent: ({ leaseToken, monthlyReturn }, sent, at) =>
        sql`UPDATE monthly_returns SET correlation_id = ${sent.correlationId}, sent_at = ${at},
              response_endpoint = ${sent.endpoint}, poll_interval_seconds = ${sent.pollIntervalSeconds},
              irmark = ${sent.irmark}
            WHERE tenant_id = ${monthlyReturn.tenantId} AND id = ${monthlyReturn.id}
              AND status = 'Submitted' AND lease_token = ${leaseToken}
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
