import type { TenantCode } from "@cisbook/core/tenants/Tenant"
import type { TenantId } from "@cisbook/core/Ids"
import {
  type ClaimedDelivery,
  type DeliveryStatus,
  type IssuedStatement,
  ReturnStatementRepo
} from "@cisbook/core/returns/ReturnStatementRepo"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** A statement that went out, and its delivery, as the SQL row keeps them. */
interface Row {
  readonly issued: IssuedStatement
  readonly pdf: Uint8Array | null
  readonly delivery: {
    readonly status: DeliveryStatus
    readonly deliveredTo: { readonly tenantId: TenantId; readonly tenantCode: TenantCode } | null
    readonly deliveredAt: Date | null
  } | null
  readonly lease: { readonly token: string; readonly until: Date } | null
}

const sameStatement = (a: Pick<IssuedStatement, "tenantId" | "monthlyReturnId" | "contactId">) => (row: Row) =>
  row.issued.tenantId === a.tenantId &&
  row.issued.monthlyReturnId === a.monthlyReturnId &&
  row.issued.contactId === a.contactId

/** The statements of accepted returns that went out, in memory, in the order recorded. */
export const ReturnStatementRepoMemory = Layer.effect(
  ReturnStatementRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const ids = yield* IdGenerator
    const rows = yield* journal.ref<ReadonlyArray<Row>>([])
    return ReturnStatementRepo.of({
      insert: (statements) =>
        Ref.update(rows, (all) =>
          statements.reduce<ReadonlyArray<Row>>(
            (kept, issued) =>
              kept.some(sameStatement(issued))
                ? kept
                : [
                    ...kept,
                    {
                      issued,
                      pdf: issued.pdf,
                      delivery:
                        issued.deliverVia === null ? null : { status: "Due", deliveredTo: null, deliveredAt: null },
                      lease: null
                    }
                  ],
            all
          )
        ),
      list: (tenantId, monthlyReturnId) =>
        Effect.map(Ref.get(rows), (all) =>
          all
            .filter((row) => row.issued.tenantId === tenantId && row.issued.monthlyReturnId === monthlyReturnId)
            .map((row) => ({
              contactId: row.issued.contactId,
              mailId: row.issued.mailId,
              delivery:
                row.delivery === null
                  ? null
                  : {
                      status: row.delivery.status,
                      deliveredTo: row.delivery.deliveredTo?.tenantCode ?? null,
                      deliveredAt: row.delivery.deliveredAt
                    }
            }))
        ),
      pdf: (tenantId, monthlyReturnId, contactId) =>
        Effect.map(Ref.get(rows), (all) =>
          Option.fromNullable(all.find(sameStatement({ tenantId, monthlyReturnId, contactId }))?.pdf ?? null)
        ),
      claimDeliveries: (now, leaseUntil, limit) =>
        Effect.flatMap(ids.uuid, (token) =>
          Ref.modify(rows, (all) => {
            const due = all
              .filter((row) => row.delivery?.status === "Due" && (row.lease === null || row.lease.until <= now))
              .sort((a, b) => a.issued.issuedAt.getTime() - b.issued.issuedAt.getTime())
              .slice(0, limit)
            const claimed = due.map(({ issued }): ClaimedDelivery => ({
              tenantId: issued.tenantId,
              monthlyReturnId: issued.monthlyReturnId,
              contactId: issued.contactId,
              connectionId: issued.deliverVia!,
              leaseToken: token
            }))
            const lease = { token, until: leaseUntil }
            return [claimed, all.map((row) => (due.includes(row) ? { ...row, lease } : row))] as const
          })
        ),
      recordDelivery: (claimed, outcome) =>
        Ref.modify(rows, (all) => {
          const row = all.find(
            (r) => sameStatement(claimed)(r) && r.delivery?.status === "Due" && r.lease?.token === claimed.leaseToken
          )
          if (row === undefined) return [false, all] as const
          const next: Row =
            outcome._tag === "Delivered"
              ? {
                  ...row,
                  pdf: row.pdf ?? outcome.pdf,
                  delivery: { status: "Delivered", deliveredTo: outcome.to, deliveredAt: outcome.at },
                  lease: null
                }
              : { ...row, delivery: { status: "Dropped", deliveredTo: null, deliveredAt: null }, lease: null }
          return [true, all.map((r) => (r === row ? next : r))] as const
        })
    })
  })
)
