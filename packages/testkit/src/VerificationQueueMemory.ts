import type { ContactId, TenantId } from "@cisbook/core/Ids"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type QueuedVerification, VerificationQueue } from "@cisbook/core/verification/VerificationQueue"
import type { Acknowledgement } from "@cisbook/core/taxauthority/Acknowledgement"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface Row {
  readonly verification: QueuedVerification
  readonly dueAt: Date
  readonly attempts: number
  readonly lease: { readonly token: string; readonly until: Date } | null
  readonly lastError: string | null
  /** Why it is held (due no more until released); null when it is not. */
  readonly heldReason: string | null
  readonly sent: (Acknowledgement & { readonly at: Date }) | null
}

/** Waiting verification requests, oldest first. */
export class VerificationQueueStore extends Effect.Service<VerificationQueueStore>()("testkit/VerificationQueueStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<Row>>([]))
}) {}

const isFor = (tenantId: TenantId, contactId: ContactId) => (row: Row) =>
  row.verification.tenantId === tenantId && row.verification.contactId === contactId

const leasedTo = (tenantId: TenantId, contactId: ContactId, token: string) => (row: Row) =>
  isFor(tenantId, contactId)(row) && row.lease?.token === token

export const VerificationQueueMemory = Layer.effect(
  VerificationQueue,
  Effect.gen(function* () {
    const store = yield* VerificationQueueStore
    const ids = yield* IdGenerator
    return VerificationQueue.of({
      queue: (verification) =>
        Ref.update(store, (rows) => [
          ...rows.filter((row) => !isFor(verification.tenantId, verification.contactId)(row)),
          {
            verification,
            dueAt: verification.requestedAt,
            attempts: 0,
            lease: null,
            lastError: null,
            heldReason: null,
            sent: null
          }
        ]),
      claimDue: (now, leaseUntil, limit) =>
        Effect.flatMap(ids.uuid, (token) =>
          Ref.modify(store, (rows) => {
            const chosen = new Set(
              rows
                .filter(
                  (row) => row.heldReason === null && row.dueAt <= now && (row.lease === null || row.lease.until <= now)
                )
                .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
                .slice(0, limit)
            )
            const next = rows.map((row) =>
              chosen.has(row) ? { ...row, attempts: row.attempts + 1, lease: { token, until: leaseUntil } } : row
            )
            const claimed = next
              .filter((row) => row.lease?.token === token)
              .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
              .map((row) => ({
                ...row.verification,
                attempts: row.attempts,
                leaseToken: token,
                sent: row.sent === null ? null : { correlationId: row.sent.correlationId, endpoint: row.sent.endpoint }
              }))
            return [claimed, next] as const
          })
        ),
      complete: (claimed) =>
        Ref.modify(store, (rows) => {
          const mine = leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)
          return [rows.some(mine), rows.filter((row) => !mine(row))] as const
        }),
      postpone: (claimed, at, error) =>
        Ref.update(store, (rows) =>
          rows.map((row) =>
            leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)(row)
              ? { ...row, dueAt: at, lease: null, lastError: error }
              : row
          )
        ),
      hold: (claimed, reason) =>
        Ref.modify(store, (rows) => {
          const mine = leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)
          return [
            rows.some(mine),
            // As the SQL row: held, it keeps nothing of a sending (released, it is found at HMRC or sent again).
            rows.map((row) => (mine(row) ? { ...row, lease: null, heldReason: reason, sent: null } : row))
          ] as const
        }),
      releaseHeld: (tenantId, at) =>
        Ref.modify(store, (rows) => {
          const isHeld = (row: Row) => row.verification.tenantId === tenantId && row.heldReason !== null
          return [
            rows.filter(isHeld).map((row) => row.verification),
            rows.map((row) => (isHeld(row) ? { ...row, dueAt: at, attempts: 0, heldReason: null } : row))
          ] as const
        }),
      recordSent: (claimed, sent, at) =>
        Ref.modify(store, (rows) => {
          const mine = leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)
          return [rows.some(mine), rows.map((row) => (mine(row) ? { ...row, sent: { ...sent, at } } : row))] as const
        }),
      awaitAnswer: (claimed, at) =>
        Ref.update(store, (rows) =>
          rows.map((row) =>
            leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)(row)
              ? { ...row, dueAt: at, lease: null, attempts: Math.max(row.attempts - 1, 0) }
              : row
          )
        ),
      find: (tenantId, contactId) =>
        Effect.map(Ref.get(store), (rows) =>
          Option.map(Option.fromNullable(rows.find(isFor(tenantId, contactId))), (row) => row.verification)
        )
    })
  })
).pipe(Layer.provideMerge(VerificationQueueStore.Default))
