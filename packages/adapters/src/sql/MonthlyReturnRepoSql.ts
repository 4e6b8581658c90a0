import { UnknownAnswer } from "@cisbook/core/taxauthority/UnknownAnswer"
import { type ContactId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type ClaimedReturn, MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import {
  HeldFor,
  HmrcReceipt,
  MonthlyReturn,
  MonthlyReturnStatus,
  ReturnContractor,
  ReturnLine,
  returnTotals
} from "@cisbook/core/returns/MonthlyReturn"
import { ReturnDeclarations } from "@cisbook/core/returns/ReturnDeclarations"
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
  releasedAt: Schema.NullOr(Schema.DateFromSelf),
  acceptedAt: Schema.NullOr(Schema.DateFromSelf),
  rejectionReason: Schema.NullOr(Schema.String),
  declaredEmploymentStatus: Schema.Boolean,
  declaredSubcontractorsVerified: Schema.Boolean,
  declaredInformationCorrect: Schema.Boolean,
  declaredBy: Schema.NullOr(Schema.String),
  declaredAt: Schema.DateFromSelf,
  heldReason: Schema.NullOr(Schema.String),
  heldFor: Schema.NullOr(HeldFor),
  invoiced: Schema.Boolean,
  gatewayTest: Schema.Boolean,
  correlationId: Schema.NullOr(Schema.String),
  irmark: Schema.NullOr(Schema.String),
  receiptMessage: Schema.NullOr(Schema.String),
  receiptAt: Schema.NullOr(Schema.DateFromSelf),
  receiptIrmarkVerified: Schema.NullOr(Schema.Boolean)
})
type ReturnRow = typeof ReturnRow.Type
const decodeRows = Schema.decodeUnknown(Schema.Array(ReturnRow))
const decodeClaimedRows = Schema.decodeUnknown(
  Schema.Array(
    Schema.extend(
      ReturnRow,
      Schema.Struct({
        attempts: Schema.Number,
        responseEndpoint: Schema.NullOr(Schema.String),
        pollIntervalSeconds: Schema.NullOr(Schema.Number),
        credentialsSetAt: Schema.NullOr(Schema.DateFromSelf),
        unknownAnswer: Schema.NullOr(UnknownAnswer)
      })
    )
  )
)
const decodeFilings = Schema.decodeUnknown(
  Schema.Array(
    Schema.Struct({
      id: MonthlyReturnId,
      periodEnd: Schema.String,
      status: Schema.Literal("Submitted", "Held", "Accepted"),
      nilReturn: Schema.Boolean,
      inactive: Schema.Boolean,
      filedAt: Schema.DateFromSelf,
      deducted: Schema.Number
    })
  )
)
const decodeContractor = Schema.decodeSync(ReturnContractor)
const decodeLines = Schema.decodeSync(Lines)
const encodeContractor = Schema.encodeSync(ReturnContractor)
const encodeLines = Schema.encodeSync(Lines)
const encodeScheme = Schema.encodeSync(CisScheme)

const returnColumns = `tenant_id, id, period_end, status, contractor, lines, nil_return, inactive, submitted_at,
  released_at, accepted_at, rejection_reason, declared_employment_status, declared_subcontractors_verified,
  declared_information_correct, declared_by, declared_at, held_reason, held_for, billing_invoice_id IS NOT NULL AS invoiced, gateway_test, correlation_id,
  irmark, receipt_message, receipt_at, receipt_irmark_verified`

/** The same columns, qualified for the claim's UPDATE ... FROM, whose other table also has tenant_id and id. */
const claimedColumns = `r.tenant_id, r.id, r.period_end, r.status, r.contractor, r.lines, r.nil_return, r.inactive,
  r.submitted_at, r.released_at, r.accepted_at, r.rejection_reason, r.declared_employment_status,
  r.declared_subcontractors_verified, r.declared_information_correct, r.declared_by, r.declared_at, r.held_reason, r.held_for, r.billing_invoice_id IS NOT NULL AS invoiced, r.gateway_test,
  r.correlation_id, r.irmark, r.receipt_message, r.receipt_at, r.receipt_irmark_verified, r.attempts,
  r.response_endpoint, r.poll_interval_seconds, r.credentials_set_at, r.unknown_answer`

/** The first key of the transaction lock that holds a tenant's tax month ("TAXM"). */
const TAX_MONTH_LOCK_SPACE = 0x5441584d

const fromRow = ({
  correlationId,
  declaredAt,
  declaredBy,
  declaredEmploymentStatus,
  declaredInformationCorrect,
  declaredSubcontractorsVerified,
  irmark,
  receiptAt,
  receiptIrmarkVerified,
  receiptMessage,
  ...row
}: ReturnRow) =>
  new MonthlyReturn({
    ...row,
    declarations: new ReturnDeclarations({
      employmentStatus: declaredEmploymentStatus,
      subcontractorsVerified: declaredSubcontractorsVerified,
      informationCorrect: declaredInformationCorrect,
      declaredBy,
      declaredAt
    }),
    contractor: decodeContractor(row.contractor),
    lines: decodeLines(row.lines),
    hmrcReceipt:
      row.status === "Accepted" && correlationId !== null && receiptMessage !== null && receiptAt !== null
        ? new HmrcReceipt({
            correlationId,
            irmark: irmark ?? "",
            message: receiptMessage,
            receivedAt: receiptAt,
            irmarkVerified: receiptIrmarkVerified ?? false
          })
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
            declaredEmploymentStatus: r.declarations.employmentStatus,
            declaredSubcontractorsVerified: r.declarations.subcontractorsVerified,
            declaredInformationCorrect: r.declarations.informationCorrect,
            declaredBy: r.declarations.declaredBy,
            declaredAt: r.declarations.declaredAt,
            deducted: returnTotals(r.lines).deducted,
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
      filedFor: (tenantId, periodEnd) =>
        sql`SELECT ${sql.literal(returnColumns)} FROM monthly_returns
            WHERE tenant_id = ${tenantId} AND period_end = ${periodEnd} AND status IN ('Submitted', 'Held', 'Accepted')`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), fromRow)),
          Effect.orDie
        ),
      // An advisory lock, not a row lock: the month's return may not exist yet, and the lock blocks
      // nothing but the month's filing and its subcontractors' payments (two months sharing a hash
      // only wait for each other).
      holdTaxMonth: (tenantId, periodEnd) =>
        sql`SELECT pg_advisory_xact_lock(${TAX_MONTH_LOCK_SPACE}, hashtext(${`${tenantId} ${periodEnd}`}))`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      list: (tenantId) =>
        sql`SELECT ${sql.literal(returnColumns)} FROM monthly_returns WHERE tenant_id = ${tenantId}
            ORDER BY period_end DESC, submitted_at DESC, id DESC`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map(fromRow)),
          Effect.orDie
        ),
      // The months from the list's index (tenant_id, period_end); only the accepted ones' lines are read.
      onAcceptedReturnsSince: (tenantId, from, contactIds) =>
        sql<{ contactId: ContactId }>`
          SELECT DISTINCT line->>'contactId' AS contact_id
          FROM monthly_returns r CROSS JOIN jsonb_array_elements(r.lines) line
          WHERE r.tenant_id = ${tenantId} AND r.period_end >= ${from} AND r.status = 'Accepted'
            AND line->>'contactId' = ANY(${contactIds}::text[])`.pipe(
          Effect.map((rows) => new Set(rows.map((row) => row.contactId))),
          Effect.orDie
        ),
      // The list's index (tenant_id, period_end) finds the months; the lines are not read.
      filings: (tenantId, from, to) =>
        sql`SELECT id, period_end, status, nil_return, inactive, COALESCE(released_at, submitted_at) AS filed_at, deducted
            FROM monthly_returns
            WHERE tenant_id = ${tenantId} AND period_end BETWEEN ${from} AND ${to}
              AND status IN ('Submitted', 'Held', 'Accepted') AND NOT gateway_test
            ORDER BY period_end`.pipe(Effect.flatMap(decodeFilings), Effect.orDie),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const rows = yield* leases.claim({ now, leaseUntil, limit, token })
          const claimed = yield* decodeClaimedRows(rows)
          return claimed.map(
            ({
              attempts,
              credentialsSetAt,
              pollIntervalSeconds,
              responseEndpoint,
              unknownAnswer,
              ...row
            }): ClaimedReturn => ({
              monthlyReturn: fromRow(row),
              attempts,
              leaseToken: token,
              sent:
                row.correlationId === null
                  ? null
                  : {
                      correlationId: row.correlationId,
                      endpoint: responseEndpoint,
                      irmark: row.irmark,
                      credentialsSetAt,
                      pollIntervalSeconds: pollIntervalSeconds ?? 0,
                      gatewayTest: row.gatewayTest
                    },
              unknownAnswer
            })
          )
        }).pipe(Effect.orDie),
      record: ({ leaseToken, monthlyReturn }, outcome) => {
        const where = sql`tenant_id = ${monthlyReturn.tenantId} AND id = ${monthlyReturn.id}
          AND status = 'Submitted' AND lease_token = ${leaseToken}`
        const forgetSending = sql`correlation_id = NULL, sent_at = NULL, response_endpoint = NULL,
          poll_interval_seconds = NULL, irmark = NULL, credentials_set_at = NULL, gateway_test = false`
        const set = (() => {
          switch (outcome._tag) {
            case "Retry":
              return sql`attempts = attempts + 1, next_attempt_at = ${outcome.nextAttemptAt}`
            case "Pending":
              return sql`next_attempt_at = ${outcome.nextAttemptAt},
                response_endpoint = COALESCE(${outcome.endpoint}, response_endpoint),
                unknown_answer = COALESCE(${outcome.unknownAnswer ?? null}, unknown_answer)`
            case "SendAgain":
              return sql`${forgetSending}, next_attempt_at = ${outcome.nextAttemptAt},
                attempts = attempts + ${outcome.failedAttempt ? 1 : 0},
                unknown_answer = COALESCE(${outcome.unknownAnswer ?? null}, unknown_answer)`
            case "Accepted":
              return sql`status = 'Accepted', accepted_at = ${outcome.at}, next_attempt_at = NULL,
                receipt_message = ${outcome.receipt.message}, receipt_at = ${outcome.receipt.receivedAt},
                receipt_irmark_verified = ${outcome.receipt.irmarkVerified}, gateway_test = ${outcome.gatewayTest}`
            case "Rejected":
              return sql`status = 'Rejected', rejection_reason = ${outcome.reason}, next_attempt_at = NULL`
            case "Held":
              // Held, it keeps nothing of a sending: released, it is sent afresh.
              return sql`status = 'Held', held_reason = ${outcome.reason}, held_for = ${outcome.heldFor},
                next_attempt_at = NULL, unknown_answer = NULL, ${forgetSending}`
          }
        })()
        return sql`UPDATE monthly_returns SET ${set}, ${leases.release} WHERE ${where} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
      },
      releaseHeld: (tenantId, at, scheme) =>
        sql`UPDATE monthly_returns SET status = 'Submitted', held_reason = NULL, held_for = NULL, attempts = 0,
              next_attempt_at = ${at}, released_at = ${at},
              contractor = ${
                scheme === undefined
                  ? sql`contractor`
                  : sql`jsonb_set(contractor, '{scheme}', ${JSON.stringify(encodeScheme(scheme))}::jsonb)`
              }
            WHERE tenant_id = ${tenantId} AND status = 'Held' AND held_for = 'Credentials'
            RETURNING ${sql.literal(returnColumns)}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map(fromRow)),
          Effect.orDie
        ),
      release: (tenantId, id, at) =>
        sql`UPDATE monthly_returns SET status = 'Submitted', held_reason = NULL, held_for = NULL, attempts = 0,
              next_attempt_at = ${at}, released_at = ${at}, unknown_answer = NULL
            WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'Held' AND held_for = 'UnknownAnswer'
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      recordSent: ({ leaseToken, monthlyReturn }, sent, at) =>
        sql`UPDATE monthly_returns SET correlation_id = ${sent.correlationId}, sent_at = ${at},
              response_endpoint = ${sent.endpoint}, poll_interval_seconds = ${sent.pollIntervalSeconds},
              irmark = ${sent.irmark}, credentials_set_at = ${sent.credentialsSetAt}, gateway_test = ${sent.gatewayTest}
            WHERE tenant_id = ${monthlyReturn.tenantId} AND id = ${monthlyReturn.id}
              AND status = 'Submitted' AND lease_token = ${leaseToken}
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
