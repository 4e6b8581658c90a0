import type { ProviderEvent, ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEvent"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { ProviderEventInbox } from "@cisbook/core/billing/providerevents/ProviderEventInbox"
import { Effect, Layer, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface InboxRow {
  readonly event: ProviderEvent
  readonly receivedAt: Date
  readonly handled: ProviderEventHandling
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly lease: { readonly token: string; readonly until: Date } | null
}

const isDue = (now: Date) => (row: InboxRow) =>
  row.handled === "pending" && row.nextAttemptAt <= now && (row.lease === null || row.lease.until <= now)

/** The provider events inbox in memory, in the order received; one row per event id. */
export const ProviderEventInboxMemory = Layer.effect(
  ProviderEventInbox,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const ids = yield* IdGenerator
    const rows = yield* journal.ref<ReadonlyArray<InboxRow>>([])
    return ProviderEventInbox.of({
      add: (batch, receivedAt) =>
        Ref.modify(rows, (all) => {
          const known = new Set(all.map((row) => row.event.id))
          const added: Array<InboxRow> = []
          for (const event of batch.events) {
            if (known.has(event.id)) continue
            known.add(event.id)
            added.push({ event, receivedAt, handled: "pending", attempts: 0, nextAttemptAt: receivedAt, lease: null })
          }
          return [added.length, [...all, ...added]]
        }),
      claimDue: (now, until, limit) =>
        Effect.flatMap(ids.uuid, (token) =>
          Ref.modify(rows, (all) => {
            const due = all
              .filter(isDue(now))
              .sort(
                (a, b) =>
                  a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() ||
                  a.event.createdAt.getTime() - b.event.createdAt.getTime()
              )
              .slice(0, limit)
              .sort((a, b) => a.event.createdAt.getTime() - b.event.createdAt.getTime())
            const claimed = due.map((row) => ({ event: row.event, attempts: row.attempts, leaseToken: token }))
            return [claimed, all.map((row) => (due.includes(row) ? { ...row, lease: { token, until } } : row))]
          })
        ),
      settle: (id, leaseToken, outcome) =>
        Ref.modify(rows, (all) => {
          const found = all.find((r) => r.event.id === id && r.lease?.token === leaseToken && r.handled === "pending")
          if (found === undefined) return [false, all]
          const settled: InboxRow = { ...found, handled: outcome, attempts: found.attempts + 1, lease: null }
          return [true, all.map((row) => (row === found ? settled : row))]
        }),
      postpone: (postponed) =>
        Ref.update(rows, (all) =>
          all.map((row) => {
            const p = postponed.find((p) => p.id === row.event.id && p.leaseToken === row.lease?.token)
            return p === undefined || row.handled !== "pending"
              ? row
              : { ...row, nextAttemptAt: p.retryAt, attempts: row.attempts + 1, lease: null }
          })
        ),
      list: (limit) =>
        Effect.map(Ref.get(rows), (all) =>
          [...all]
            .reverse()
            .slice(0, limit)
            .map((row) => ({
              id: row.event.id,
              resourceType: row.event.resourceType,
              action: row.event.action,
              resourceId: row.event.resourceId,
              receivedAt: row.receivedAt,
              handled: row.handled
            }))
        )
    })
  })
)
