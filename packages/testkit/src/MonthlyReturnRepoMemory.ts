import type { BillingInvoiceId } from "@cisbook/core/Ids"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type ClaimedReturn, MonthlyReturnRepo, type RecordedSending } from "@cisbook/core/returns/MonthlyReturnRepo"
import { answered, held, HmrcReceipt, MonthlyReturn, resubmitted } from "@cisbook/core/returns/MonthlyReturn"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** A stored return and its place in the filers' queue, as the SQL row keeps it. */
export interface StoredReturn {
  readonly monthlyReturn: MonthlyReturn
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly lease: { readonly token: string; readonly until: Date } | null
  /** The sending recorded right after the tax authority's acknowledgement, or null. */
  readonly sent: (RecordedSending & { readonly at: Date }) | null
  /** The invoice that billed it (`monthlyReturn.invoiced` says whether there is one). */
  readonly billingInvoiceId: BillingInvoiceId | null
}
type Row = StoredReturn

/** Every return, in the order filed (BillingInvoiceRepoMemory bills them). */
export class MonthlyReturnStore extends Effect.Service<MonthlyReturnStore>()("testkit/MonthlyReturnStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<StoredReturn>>([]))
}) {}

const isLive = (r: MonthlyReturn) => r.status !== "Rejected"

const newestFirst = (a: MonthlyReturn, b: MonthlyReturn) =>
  b.periodEnd.localeCompare(a.periodEnd) ||
  b.submittedAt.getTime() - a.submittedAt.getTime() ||
  b.id.localeCompare(a.id)

export const MonthlyReturnRepoMemory = Layer.effect(
  MonthlyReturnRepo,
  Effect.gen(function* () {
    const ids = yield* IdGenerator
    const rows = yield* MonthlyReturnStore
    const is = (claimed: ClaimedReturn) => (row: Row) =>
      row.monthlyReturn.tenantId === claimed.monthlyReturn.tenantId &&
      row.monthlyReturn.id === claimed.monthlyReturn.id &&
      row.monthlyReturn.status === "Submitted" &&
      row.lease?.token === claimed.leaseToken
    return MonthlyReturnRepo.of({
      insert: (monthlyReturn) =>
        Ref.get(rows).pipe(
          Effect.flatMap((all) =>
            all.some(
              ({ monthlyReturn: r }) =>
                r.tenantId === monthlyReturn.tenantId && r.periodEnd === monthlyReturn.periodEnd && isLive(r)
            )
              ? Effect.fail(new DuplicateKey({ key: "period" }))
              : Ref.set(rows, [
                  ...all,
                  {
                    monthlyReturn,
                    attempts: 0,
                    nextAttemptAt: monthlyReturn.submittedAt,
                    lease: null,
                    sent: null,
                    billingInvoiceId: null
                  }
                ])
          )
        ),
      find: (tenantId, id) =>
        Effect.map(Ref.get(rows), (all) =>
          Option.fromNullable(all.find(({ monthlyReturn: r }) => r.tenantId === tenantId && r.id === id)?.monthlyReturn)
        ),
      list: (tenantId) =>
        Effect.map(Ref.get(rows), (all) =>
          all
            .map((row) => row.monthlyReturn)
            .filter((r) => r.tenantId === tenantId)
            .sort(newestFirst)
        ),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const lease = { token, until: leaseUntil }
          return yield* Ref.modify(rows, (all) => {
            const due = all
              .filter(
                (row) =>
                  row.monthlyReturn.status === "Submitted" &&
                  row.nextAttemptAt !== null &&
                  row.nextAttemptAt <= now &&
                  (row.lease === null || row.lease.until <= now)
              )
              .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
              .slice(0, limit)
            const chosen = new Set(due)
            const claimed = due.map((row): ClaimedReturn => ({
              monthlyReturn: row.monthlyReturn,
              attempts: row.attempts,
              leaseToken: token,
              sent:
                row.sent === null
                  ? null
                  : { correlationId: row.sent.correlationId, endpoint: row.sent.endpoint, irmark: row.sent.irmark }
            }))
            return [claimed, all.map((row) => (chosen.has(row) ? { ...row, lease } : row))]
          })
        }),
      record: (claimed, outcome) =>
        Ref.modify(rows, (all) => {
          const row = all.find(is(claimed))
          if (!row) return [false, all]
          const next: Row =
            outcome._tag === "Retry"
              ? { ...row, attempts: row.attempts + 1, nextAttemptAt: outcome.nextAttemptAt, lease: null }
              : outcome._tag === "Pending"
                ? { ...row, nextAttemptAt: outcome.nextAttemptAt, lease: null }
                : outcome._tag === "Held"
                  ? // As the SQL row: held, it keeps nothing of a sending (released, it is found at HMRC or sent again).
                    {
                      ...row,
                      nextAttemptAt: null,
                      lease: null,
                      sent: null,
                      monthlyReturn: held(row.monthlyReturn, outcome.reason)
                    }
                  : {
                      ...row,
                      nextAttemptAt: null,
                      lease: null,
                      monthlyReturn: new MonthlyReturn({
                        ...answered(row.monthlyReturn, outcome),
                        // As the SQL row keeps it: the recorded sending's correlation id and IRmark, with HMRC's text.
                        hmrcReceipt:
                          outcome._tag === "Accepted" && row.sent !== null
                            ? new HmrcReceipt({
                                correlationId: row.sent.correlationId,
                                irmark: row.sent.irmark,
                                message: outcome.receipt.message,
                                receivedAt: outcome.receipt.receivedAt
                              })
                            : null
                      })
                    }
          return [true, all.map((one) => (one === row ? next : one))]
        }),
      releaseHeld: (tenantId, at) =>
        Ref.modify(rows, (all) => {
          const next = all.map((row) =>
            row.monthlyReturn.tenantId === tenantId && row.monthlyReturn.status === "Held"
              ? { ...row, attempts: 0, nextAttemptAt: at, monthlyReturn: resubmitted(row.monthlyReturn) }
              : row
          )
          const released = next.filter((row, i) => row !== all[i]).map((row) => row.monthlyReturn)
          return [released, next] as const
        }),
      recordSent: (claimed, sent, at) =>
        Ref.modify(rows, (all) => {
          const row = all.find(is(claimed))
          if (!row) return [false, all]
          return [true, all.map((one) => (one === row ? { ...row, sent: { ...sent, at } } : one))]
        })
    })
  })
)
