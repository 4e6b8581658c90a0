import type { MailSummary, OutgoingMail } from "@cisbook/core/mail/OutgoingMail"
import type { MailProgress } from "@cisbook/core/mail/MailSchedule"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { Effect, Layer, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface MailRow {
  readonly mail: OutgoingMail
  readonly progress: MailProgress
  readonly lease: { readonly token: string; readonly until: Date } | null
}

/** A fresh set of attempts, the first due at `at`. */
const queuedAt = (at: Date, lastError: string | null): MailProgress => ({
  status: "Queued",
  attempts: 0,
  nextAttemptAt: at,
  lastError,
  sentAt: null
})

const isDue = (now: Date) => (row: MailRow) =>
  row.progress.status === "Queued" &&
  row.progress.nextAttemptAt !== null &&
  row.progress.nextAttemptAt <= now &&
  (row.lease === null || row.lease.until <= now)

const summary = ({ mail, progress }: MailRow): MailSummary => ({
  tenantId: mail.tenantId,
  id: mail.id,
  type: mail.type,
  to: mail.to,
  subject: mail.subject,
  status: progress.status,
  attempts: progress.attempts,
  nextAttemptAt: progress.nextAttemptAt,
  lastError: progress.lastError,
  createdAt: mail.createdAt,
  sentAt: progress.sentAt
})

/** The mail outbox in memory, oldest first. */
export const MailOutboxMemory = Layer.effect(
  MailOutbox,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const ids = yield* IdGenerator
    const rows = yield* journal.ref<ReadonlyArray<MailRow>>([])
    return MailOutbox.of({
      add: (mail) =>
        Ref.update(rows, (all) => [...all, { mail, progress: queuedAt(mail.createdAt, null), lease: null }]),
      claimDue: (now, until, limit) =>
        Effect.flatMap(ids.uuid, (token) =>
          Ref.modify(rows, (all) => {
            const due = all
              .filter(isDue(now))
              .sort((a, b) => a.progress.nextAttemptAt!.getTime() - b.progress.nextAttemptAt!.getTime())
              .slice(0, limit)
            const claimed = due.map((row) => ({ mail: row.mail, attempts: row.progress.attempts, leaseToken: token }))
            const next = all.map((row) => (due.includes(row) ? { ...row, lease: { token, until } } : row))
            return [claimed, next] as const
          })
        ),
      record: (attempts) =>
        Ref.update(rows, (all) =>
          all.map((row) => {
            const outcome = attempts.find(
              (a) =>
                a.mail.tenantId === row.mail.tenantId && a.mail.id === row.mail.id && a.leaseToken === row.lease?.token
            )
            return outcome === undefined ? row : { ...row, progress: outcome.progress, lease: null }
          })
        ),
      sentOf: (tenantId, ids) =>
        Effect.map(Ref.get(rows), (all) =>
          all.flatMap(({ mail, progress }) =>
            mail.tenantId === tenantId &&
            ids.includes(mail.id) &&
            progress.status === "Sent" &&
            progress.sentAt !== null
              ? [{ id: mail.id, to: mail.to, sentAt: progress.sentAt }]
              : []
          )
        ),
      list: ({ limit, status }) =>
        Effect.map(Ref.get(rows), (all) =>
          all
            .filter((row) => status === null || row.progress.status === status)
            .reverse()
            .slice(0, limit)
            .map(summary)
        ),
      retry: (id, at) =>
        Ref.modify(rows, (all) => {
          const found = all.find((row) => row.mail.id === id && row.progress.status === "Failed")
          if (found === undefined) return [false, all] as const
          const again: MailRow = {
            mail: found.mail,
            progress: queuedAt(at, found.progress.lastError),
            lease: null
          }
          return [true, all.map((row) => (row === found ? again : row))] as const
        })
    })
  })
)
