import type { UnknownAnswer } from "@cisbook/core/taxauthority/UnknownAnswer"
import type { BillingInvoiceId } from "@cisbook/core/Ids"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import {
  type ClaimedReturn,
  type MonthFiling,
  MonthlyReturnRepo,
  type RecordedSending
} from "@cisbook/core/returns/MonthlyReturnRepo"
import {
  answered,
  filedAt,
  held,
  HmrcReceipt,
  MonthlyReturn,
  resubmitted,
  ReturnContractor,
  returnTotals
} from "@cisbook/core/returns/MonthlyReturn"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** A stored return and its place in the filers' queue, as the SQL row keeps it. */
export interface StoredReturn {
  readonly monthlyReturn: MonthlyReturn
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly lease: { readonly token: string; readonly until: Date } | null
  /**
   * The sending recorded right after the tax authority's acknowledgement (its endpoint the one the
   * last acknowledgement named), or null.
   */
  readonly sent: (Omit<RecordedSending, "endpoint"> & { readonly endpoint: string | null; readonly at: Date }) | null
  /** What HMRC's data request said when a poll last found the correlation id unknown. */
  readonly unknownAnswer: UnknownAnswer | null
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
                    unknownAnswer: null,
                    billingInvoiceId: null
                  }
                ])
          )
        ),
      find: (tenantId, id) =>
        Effect.map(Ref.get(rows), (all) =>
          Option.fromNullable(all.find(({ monthlyReturn: r }) => r.tenantId === tenantId && r.id === id)?.monthlyReturn)
        ),
      filedFor: (tenantId, periodEnd) =>
        Effect.map(Ref.get(rows), (all) =>
          Option.fromNullable(
            all.find(({ monthlyReturn: r }) => r.tenantId === tenantId && r.periodEnd === periodEnd && isLive(r))
              ?.monthlyReturn
          )
        ),
      // One fiber at a time runs here and nothing is shared between processes: there is nothing to hold.
      holdTaxMonth: () => Effect.void,
      list: (tenantId) =>
        Effect.map(Ref.get(rows), (all) =>
          all
            .map((row) => row.monthlyReturn)
            .filter((r) => r.tenantId === tenantId)
            .sort(newestFirst)
        ),
      onAcceptedReturnsSince: (tenantId, from, contactIds) =>
        Effect.map(Ref.get(rows), (all) => {
          const on = new Set(
            all
              .map((row) => row.monthlyReturn)
              .filter((r) => r.tenantId === tenantId && r.status === "Accepted" && r.periodEnd >= from)
              .flatMap((r) => r.lines.map((line) => line.contactId))
          )
          return new Set(contactIds.filter((id) => on.has(id)))
        }),
      filings: (tenantId, from, to) =>
        Effect.map(Ref.get(rows), (all) =>
          all
            .map((row) => row.monthlyReturn)
            .filter(
              (r): r is MonthlyReturn & { status: MonthFiling["status"] } =>
                r.tenantId === tenantId &&
                r.periodEnd >= from &&
                r.periodEnd <= to &&
                r.status !== "Rejected" &&
                !r.gatewayTest
            )
            .sort((a, b) => a.periodEnd.localeCompare(b.periodEnd))
            .map((r): MonthFiling => ({
              id: r.id,
              periodEnd: r.periodEnd,
              status: r.status,
              nilReturn: r.nilReturn,
              inactive: r.inactive,
              filedAt: filedAt(r),
              deducted: returnTotals(r.lines).deducted
            }))
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
                  : {
                      correlationId: row.sent.correlationId,
                      endpoint: row.sent.endpoint,
                      irmark: row.sent.irmark,
                      credentialsSetAt: row.sent.credentialsSetAt,
                      pollIntervalSeconds: row.sent.pollIntervalSeconds,
                      gatewayTest: row.sent.gatewayTest
                    },
              unknownAnswer: row.unknownAnswer
            }))
            return [claimed, all.map((row) => (chosen.has(row) ? { ...row, lease } : row))]
          })
        }),
      record: (claimed, outcome) =>
        Ref.modify(rows, (all) => {
          const row = all.find(is(claimed))
          if (!row) return [false, all]
          const next = ((): Row => {
            switch (outcome._tag) {
              case "Retry":
                return { ...row, attempts: row.attempts + 1, nextAttemptAt: outcome.nextAttemptAt, lease: null }
              case "Pending":
                return {
                  ...row,
                  nextAttemptAt: outcome.nextAttemptAt,
                  lease: null,
                  sent: row.sent === null ? null : { ...row.sent, endpoint: outcome.endpoint ?? row.sent.endpoint },
                  unknownAnswer: outcome.unknownAnswer ?? row.unknownAnswer
                }
              case "SendAgain":
                return {
                  ...row,
                  attempts: outcome.failedAttempt ? row.attempts + 1 : row.attempts,
                  nextAttemptAt: outcome.nextAttemptAt,
                  lease: null,
                  sent: null,
                  unknownAnswer: outcome.unknownAnswer ?? row.unknownAnswer
                }
              case "Held":
                // As the SQL row: held, it keeps nothing of a sending (released, it is sent afresh).
                return {
                  ...row,
                  nextAttemptAt: null,
                  lease: null,
                  sent: null,
                  unknownAnswer: null,
                  monthlyReturn: held(row.monthlyReturn, outcome.heldFor, outcome.reason)
                }
              case "Accepted":
              case "Rejected":
                return {
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
                            receivedAt: outcome.receipt.receivedAt,
                            irmarkVerified: outcome.receipt.irmarkVerified
                          })
                        : null
                  })
                }
            }
          })()
          return [true, all.map((one) => (one === row ? next : one))]
        }),
      releaseHeld: (tenantId, at, scheme) =>
        Ref.modify(rows, (all) => {
          const next = all.map((row) =>
            row.monthlyReturn.tenantId === tenantId && row.monthlyReturn.heldFor === "Credentials"
              ? {
                  ...row,
                  attempts: 0,
                  nextAttemptAt: at,
                  monthlyReturn: resubmitted(
                    scheme === undefined
                      ? row.monthlyReturn
                      : new MonthlyReturn({
                          ...row.monthlyReturn,
                          contractor: new ReturnContractor({ ...row.monthlyReturn.contractor, scheme })
                        }),
                    at
                  )
                }
              : row
          )
          const released = next.filter((row, i) => row !== all[i]).map((row) => row.monthlyReturn)
          return [released, next] as const
        }),
      release: (tenantId, id, at) =>
        Ref.modify(rows, (all) => {
          const row = all.find(
            ({ monthlyReturn: r }) => r.tenantId === tenantId && r.id === id && r.heldFor === "UnknownAnswer"
          )
          if (row === undefined) return [false, all] as const
          const released: Row = {
            ...row,
            attempts: 0,
            nextAttemptAt: at,
            unknownAnswer: null,
            monthlyReturn: resubmitted(row.monthlyReturn, at)
          }
          return [true, all.map((one) => (one === row ? released : one))] as const
        }),
      recordSent: (claimed, sent, at) =>
        Ref.modify(rows, (all) => {
          const row = all.find(is(claimed))
          if (!row) return [false, all]
          const recorded: Row = {
            ...row,
            sent: { ...sent, at },
            monthlyReturn: new MonthlyReturn({ ...row.monthlyReturn, gatewayTest: sent.gatewayTest })
          }
          return [true, all.map((one) => (one === row ? recorded : one))]
        })
    })
  })
)
