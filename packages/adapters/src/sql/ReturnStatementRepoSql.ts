import { ConnectionId, ContactId, MailId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { type ClaimedDelivery, DeliveryStatus, ReturnStatementRepo } from "@cisbook/core/returns/ReturnStatementRepo"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { leaseClaim } from "./LeaseClaim.js"

const SendingRow = Schema.Struct({
  contactId: ContactId,
  mailId: Schema.NullOr(MailId),
  deliveryStatus: Schema.NullOr(DeliveryStatus),
  deliveredToTenantCode: Schema.NullOr(TenantCode),
  deliveredAt: Schema.NullOr(Schema.DateFromSelf)
})
const decodeSendings = Schema.decodeUnknown(Schema.Array(SendingRow))

const PdfRow = Schema.Struct({ pdf: Schema.NullOr(Schema.Uint8ArrayFromSelf) })
const decodePdf = Schema.decodeUnknown(Schema.Array(PdfRow))

const ClaimedRow = Schema.Struct({
  tenantId: TenantId,
  monthlyReturnId: MonthlyReturnId,
  contactId: ContactId,
  deliverVia: ConnectionId
})
const decodeClaimed = Schema.decodeUnknown(Schema.Array(ClaimedRow))

export const ReturnStatementRepoSql = Layer.effect(
  ReturnStatementRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    const leases = leaseClaim(sql, {
      table: "return_statements",
      alias: "s",
      key: ["tenant_id", "monthly_return_id", "contact_id"],
      token: true,
      due: () => sql`s.delivery_status = 'Due'`,
      order: "s.issued_at",
      returning: () => sql`s.tenant_id, s.monthly_return_id, s.contact_id, s.deliver_via`
    })

    return ReturnStatementRepo.of({
      insert: (statements) =>
        statements.length === 0
          ? Effect.void
          : sql`
              INSERT INTO return_statements ${sql.insert(
                statements.map((s) => ({
                  tenantId: s.tenantId,
                  monthlyReturnId: s.monthlyReturnId,
                  contactId: s.contactId,
                  contactCode: s.contactCode,
                  pdf: s.pdf,
                  mailId: s.mailId,
                  issuedAt: s.issuedAt,
                  deliverVia: s.deliverVia,
                  deliveryStatus: s.deliverVia === null ? null : "Due"
                }))
              )}
              ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      list: (tenantId, monthlyReturnId) =>
        sql`
          SELECT contact_id, mail_id, delivery_status, delivered_to_tenant_code, delivered_at
          FROM return_statements
          WHERE tenant_id = ${tenantId} AND monthly_return_id = ${monthlyReturnId}`.pipe(
          Effect.flatMap(decodeSendings),
          Effect.map((rows) =>
            rows.map((row) => ({
              contactId: row.contactId,
              mailId: row.mailId,
              delivery:
                row.deliveryStatus === null
                  ? null
                  : {
                      status: row.deliveryStatus,
                      deliveredTo: row.deliveredToTenantCode,
                      deliveredAt: row.deliveredAt
                    }
            }))
          ),
          Effect.orDie
        ),
      pdf: (tenantId, monthlyReturnId, contactId) =>
        sql`
          SELECT pdf FROM return_statements
          WHERE tenant_id = ${tenantId} AND monthly_return_id = ${monthlyReturnId} AND contact_id = ${contactId}`.pipe(
          Effect.flatMap(decodePdf),
          Effect.map((rows) => Option.fromNullable(rows[0]?.pdf ?? null)),
          Effect.orDie
        ),
      claimDeliveries: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const rows = yield* decodeClaimed(yield* leases.claim({ now, leaseUntil, limit, token }))
          return rows.map((row): ClaimedDelivery => ({
            tenantId: row.tenantId,
            monthlyReturnId: row.monthlyReturnId,
            contactId: row.contactId,
            connectionId: row.deliverVia,
            leaseToken: token
          }))
        }).pipe(Effect.orDie),
      recordDelivery: (claimed, outcome) => {
        const set =
          outcome._tag === "Delivered"
            ? sql`delivery_status = 'Delivered', delivered_to_tenant_id = ${outcome.to.tenantId},
                delivered_to_tenant_code = ${outcome.to.tenantCode}, delivered_at = ${outcome.at},
                pdf = coalesce(pdf, ${outcome.pdf})`
            : sql`delivery_status = 'Dropped'`
        return sql`
          UPDATE return_statements SET ${set}, ${leases.release}
          WHERE tenant_id = ${claimed.tenantId} AND monthly_return_id = ${claimed.monthlyReturnId}
            AND contact_id = ${claimed.contactId} AND delivery_status = 'Due' AND lease_token = ${claimed.leaseToken}
          RETURNING contact_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
      }
    })
  })
)
