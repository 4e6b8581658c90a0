import { UnknownAnswer } from "@cisbook/core/taxauthority/UnknownAnswer"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { ContactId, TenantId } from "@cisbook/core/Ids"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type QueuedVerification, VerificationQueue } from "@cisbook/core/verification/VerificationQueue"
import type { VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { leaseClaim } from "./LeaseClaim.js"

/** The request as it is stored: the contractor's UTR and scheme, and the subcontractor's identity, in their wire form. */
const StoredRequest = Schema.Struct({
  contractor: Schema.Struct({ utr: Schema.NullOr(Schema.String), scheme: CisScheme }),
  subcontractor: CisDetails
})
const encodeRequest = Schema.encodeSync(StoredRequest)
const encodeScheme = Schema.encodeSync(CisScheme)

const QueuedRow = Schema.Struct({
  tenantId: TenantId,
  contactId: ContactId,
  contactCode: Schema.String,
  request: StoredRequest,
  requestedAt: Schema.DateFromSelf
})
const ClaimedRow = Schema.Struct({
  ...QueuedRow.fields,
  attempts: Schema.Number,
  dueAt: Schema.DateFromSelf,
  correlationId: Schema.NullOr(Schema.String),
  responseEndpoint: Schema.NullOr(Schema.String),
  pollIntervalSeconds: Schema.NullOr(Schema.Number),
  credentialsSetAt: Schema.NullOr(Schema.DateFromSelf),
  unknownAnswer: Schema.NullOr(UnknownAnswer)
})
const decodeQueued = Schema.decodeUnknown(Schema.Array(QueuedRow))
const decodeClaimed = Schema.decodeUnknown(Schema.Array(ClaimedRow))

const queued = (row: typeof QueuedRow.Type): QueuedVerification => ({
  tenantId: row.tenantId,
  contactId: row.contactId,
  contactCode: row.contactCode,
  request: row.request satisfies VerificationRequest,
  requestedAt: row.requestedAt
})

export const VerificationQueueSql = Layer.effect(
  VerificationQueue,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    const leases = leaseClaim(sql, {
      table: "verification_requests",
      alias: "v",
      key: ["tenant_id", "contact_id"],
      token: true,
      due: (now) => sql`v.due_at <= ${now} AND v.held_reason IS NULL`,
      order: "v.due_at",
      set: sql`attempts = v.attempts + 1`,
      returning: () =>
        sql`v.tenant_id, v.contact_id, v.contact_code, v.request, v.requested_at, v.attempts, v.due_at, v.correlation_id,
          v.response_endpoint, v.poll_interval_seconds, v.credentials_set_at, v.unknown_answer`
    })
    /** What was recorded of a sending, forgotten: the request is sent afresh. */
    const forgetSending = sql`correlation_id = NULL, response_endpoint = NULL, poll_interval_seconds = NULL,
      sent_at = NULL, credentials_set_at = NULL`
    return VerificationQueue.of({
      queue: (v) =>
        sql`
          INSERT INTO verification_requests
            (tenant_id, contact_id, contact_code, request, requested_at, due_at, attempts)
          VALUES (${v.tenantId}, ${v.contactId}, ${v.contactCode}, ${JSON.stringify(encodeRequest(v.request))}::jsonb,
            ${v.requestedAt}, ${v.requestedAt}, 0)
          ON CONFLICT ON CONSTRAINT verification_requests_pkey DO UPDATE SET
            contact_code = excluded.contact_code, request = excluded.request, requested_at = excluded.requested_at,
            due_at = excluded.due_at, attempts = 0, ${leases.release}, last_error = NULL, held_reason = NULL,
            held_for = NULL, unknown_answer = NULL, ${forgetSending}`.pipe(Effect.asVoid, Effect.orDie),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const rows = yield* leases.claim({ now, leaseUntil, limit, token })
          const claimed = yield* decodeClaimed(rows)
          return [...claimed]
            .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
            .map((row) => ({
              ...queued(row),
              attempts: row.attempts,
              leaseToken: token,
              sent:
                row.correlationId === null
                  ? null
                  : {
                      correlationId: row.correlationId,
                      endpoint: row.responseEndpoint,
                      credentialsSetAt: row.credentialsSetAt,
                      pollIntervalSeconds: row.pollIntervalSeconds ?? 0
                    },
              unknownAnswer: row.unknownAnswer
            }))
        }).pipe(Effect.orDie),
      complete: (claimed) =>
        sql`
          DELETE FROM verification_requests
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}
          RETURNING contact_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      postpone: (claimed, at, error) =>
        sql`
          UPDATE verification_requests
          SET due_at = ${at}, ${leases.release}, last_error = ${error}
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}`.pipe(Effect.asVoid, Effect.orDie),
      sendAgain: (claimed, at, again) =>
        sql`
          UPDATE verification_requests
          SET due_at = ${at}, ${leases.release}, ${forgetSending},
            attempts = ${again.failedAttempt ? sql`attempts` : sql`greatest(attempts - 1, 0)`},
            unknown_answer = COALESCE(${again.unknownAnswer ?? null}, unknown_answer)
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}`.pipe(Effect.asVoid, Effect.orDie),
      hold: (claimed, reason, heldFor) =>
        sql`
          UPDATE verification_requests SET held_reason = ${reason}, held_for = ${heldFor}, ${leases.release},
            unknown_answer = NULL, ${forgetSending}
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}
          RETURNING contact_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      recordSent: (claimed, sent, credentialsSetAt, at) =>
        sql`
          UPDATE verification_requests
          SET correlation_id = ${sent.correlationId}, response_endpoint = ${sent.endpoint},
            poll_interval_seconds = ${sent.pollIntervalSeconds}, sent_at = ${at}, credentials_set_at = ${credentialsSetAt}
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}
          RETURNING contact_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      releaseHeld: (tenantId, at, scheme) =>
        sql`
          UPDATE verification_requests SET held_reason = NULL, held_for = NULL, due_at = ${at}, attempts = 0,
            request = ${
              scheme === undefined
                ? sql`request`
                : sql`jsonb_set(request, '{contractor,scheme}', ${JSON.stringify(encodeScheme(scheme))}::jsonb)`
            }
          WHERE tenant_id = ${tenantId} AND held_for = 'Credentials'
          RETURNING tenant_id, contact_id, contact_code, request, requested_at`.pipe(
          Effect.flatMap(decodeQueued),
          Effect.map((rows) => rows.map(queued)),
          Effect.orDie
        ),
      awaitAnswer: (claimed, at, endpoint, unknownAnswer) =>
        sql`
          UPDATE verification_requests
          SET due_at = ${at}, ${leases.release}, attempts = greatest(attempts - 1, 0),
            response_endpoint = COALESCE(${endpoint}, response_endpoint),
            unknown_answer = COALESCE(${unknownAnswer ?? null}, unknown_answer)
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}`.pipe(Effect.asVoid, Effect.orDie),
      find: (tenantId, contactId) =>
        sql`
          SELECT tenant_id, contact_id, contact_code, request, requested_at FROM verification_requests
          WHERE tenant_id = ${tenantId} AND contact_id = ${contactId}`.pipe(
          Effect.flatMap(decodeQueued),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), queued)),
          Effect.orDie
        )
    })
  })
)
