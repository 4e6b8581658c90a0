import type { UnknownAnswer } from "@cisbook/core/taxauthority/UnknownAnswer"
import type { ContactId, TenantId } from "@cisbook/core/Ids"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type HeldFor, type QueuedVerification, VerificationQueue } from "@cisbook/core/verification/VerificationQueue"
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
  readonly heldFor: HeldFor | null
  readonly sent:
    | (Omit<Acknowledgement, "endpoint"> & {
        readonly endpoint: string | null
        readonly credentialsSetAt: Date
        readonly at: Date
      })
    | null
  readonly unknownAnswer: UnknownAnswer | null
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
            heldFor: null,
            sent: null,
            unknownAnswer: null
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
                sent:
                  row.sent === null
                    ? null
                    : {
                        correlationId: row.sent.correlationId,
                        endpoint: row.sent.endpoint,
                        credentialsSetAt: row.sent.credentialsSetAt,
                        pollIntervalSeconds: row.sent.pollIntervalSeconds
                      },
                unknownAnswer: row.unknownAnswer
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
      sendAgain: (claimed, at, again) =>
        Ref.update(store, (rows) =>
          rows.map((row) =>
            leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)(row)
              ? {
                  ...row,
                  dueAt: at,
                  lease: null,
                  sent: null,
                  attempts: again.failedAttempt ? row.attempts : Math.max(row.attempts - 1, 0),
                  unknownAnswer: again.unknownAnswer ?? row.unknownAnswer
                }
              : row
          )
        ),
      hold: (claimed, reason, heldFor) =>
        Ref.modify(store, (rows) => {
          const mine = leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)
          return [
            rows.some(mine),
            // As the SQL row: held, it keeps nothing of a sending (released, it is sent afresh).
            rows.map((row) =>
              mine(row) ? { ...row, lease: null, heldReason: reason, heldFor, sent: null, unknownAnswer: null } : row
            )
          ] as const
        }),
      releaseHeld: (tenantId, at, scheme) =>
        Ref.modify(store, (rows) => {
          const isHeld = (row: Row) => row.verification.tenantId === tenantId && row.heldFor === "Credentials"
          const released = (row: Row): Row => ({
            ...row,
            dueAt: at,
            attempts: 0,
            heldReason: null,
            heldFor: null,
            verification:
              scheme === undefined
                ? row.verification
                : {
                    ...row.verification,
                    request: {
                      ...row.verification.request,
                      contractor: { ...row.verification.request.contractor, scheme }
                    }
                  }
          })
          const next = rows.map((row) => (isHeld(row) ? released(row) : row))
          return [next.filter((row, i) => row !== rows[i]).map((row) => row.verification), next] as const
        }),
      recordSent: (claimed, sent, credentialsSetAt, at) =>
        Ref.modify(store, (rows) => {
          const mine = leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)
          return [
            rows.some(mine),
            rows.map((row) => (mine(row) ? { ...row, sent: { ...sent, credentialsSetAt, at } } : row))
          ] as const
        }),
      awaitAnswer: (claimed, at, endpoint, unknownAnswer) =>
        Ref.update(store, (rows) =>
          rows.map((row) =>
            leasedTo(claimed.tenantId, claimed.contactId, claimed.leaseToken)(row)
              ? {
                  ...row,
                  dueAt: at,
                  lease: null,
                  attempts: Math.max(row.attempts - 1, 0),
                  sent: row.sent === null ? null : { ...row.sent, endpoint: endpoint ?? row.sent.endpoint },
                  unknownAnswer: unknownAnswer ?? row.unknownAnswer
                }
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
