import type { DeliveryId, TenantId } from "@cisbook/core/Ids"
import { type ClaimedDelivery, DeliveryRepo, type RecordedAttempt } from "@cisbook/core/webhooks/DeliveryRepo"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import type { DeliveryQuery } from "@cisbook/core/webhooks/DeliveryQuery"
import { dueAt } from "@cisbook/core/webhooks/DeliverySchedule"
import { Webhook } from "@cisbook/core/webhooks/Webhook"
import { type DeliveryAttempt, WebhookDelivery } from "@cisbook/core/webhooks/WebhookDelivery"
import { Effect, Layer, Option, Ref } from "effect"
import { OutboxStore, outboxWriter } from "./EventOutboxMemory.js"
import { type AttemptRow, DeliveryStore, type DeliveryRow, WebhookStore } from "./WebhookStores.js"

const isIt = (tenantId: TenantId, id: DeliveryId) => (r: { readonly tenantId: TenantId; readonly id: DeliveryId }) =>
  r.tenantId === tenantId && r.id === id

const attemptsOf = (attempts: ReadonlyArray<AttemptRow>, row: DeliveryRow) =>
  attempts.filter((a) => a.tenantId === row.tenantId && a.deliveryId === row.id).map((a) => a.attempt)

const view = (row: DeliveryRow, log: ReadonlyArray<DeliveryAttempt>) => {
  const last = log.at(-1)
  return new WebhookDelivery({
    id: row.id,
    tenantId: row.tenantId,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.schedule.status,
    attempts: row.schedule.attempts,
    createdAt: row.createdAt,
    lastAttemptAt: last?.at ?? null,
    nextAttemptAt: dueAt(row.schedule),
    responseStatus: last?.responseStatus ?? null,
    responseBody: last?.responseBody ?? null
  })
}

const matches = (tenantId: TenantId, query: DeliveryQuery) => (row: DeliveryRow) =>
  row.tenantId === tenantId &&
  (query.webhookId === null || row.webhookId === query.webhookId) &&
  (query.status === null || row.schedule.status === query.status)

export const DeliveryRepoMemory = Layer.effect(
  DeliveryRepo,
  Effect.gen(function* () {
    const store = yield* DeliveryStore
    const webhooks = yield* WebhookStore
    const events = yield* OutboxStore
    const ids = yield* IdGenerator
    const writer = yield* outboxWriter
    return DeliveryRepo.of({
      queueFor: (tenantId, webhookId, event) =>
        Effect.gen(function* () {
          const [recorded] = yield* writer.recordEvents(tenantId, [event])
          const [queued] = recorded ? yield* writer.queue(recorded, (webhook) => webhook.id === webhookId) : []
          if (queued === undefined) return yield* Effect.die(`The tenant ${tenantId} has no webhook ${webhookId}`)
          return queued.id
        }),
      find: (tenantId, id) =>
        Effect.map(Ref.get(store), ({ attempts, rows }) =>
          Option.map(Option.fromNullable(rows.find(isIt(tenantId, id))), (row) => {
            const attemptLog = attemptsOf(attempts, row)
            return { delivery: view(row, attemptLog), attemptLog }
          })
        ),
      list: (tenantId, query) =>
        Effect.map(Ref.get(store), ({ attempts, rows }) => {
          const found = rows.filter(matches(tenantId, query)).reverse()
          const page = found.slice(query.offset, query.offset + query.limit)
          return { items: page.map((row) => view(row, attemptsOf(attempts, row))), totalCount: found.length }
        }),
      requestRetry: (tenantId, id, at) =>
        Ref.modify(store, (s) => {
          const row = s.rows.find(isIt(tenantId, id))
          const idle = row !== undefined && (row.lease === null || row.lease.until <= at)
          if (row?.schedule.status !== "Failed" || !idle) return [false, s] as const
          const requested: DeliveryRow = {
            ...row,
            schedule: { ...row.schedule, status: "Pending", retryRequestedAt: at },
            lease: null
          }
          return [true, { ...s, rows: s.rows.map((r) => (r === row ? requested : r)) }] as const
        }),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          const hooks = yield* Ref.get(webhooks)
          const recorded = yield* Ref.get(events)
          const hookOf = (row: DeliveryRow) =>
            hooks.find((h) => h.webhook.tenantId === row.tenantId && h.webhook.id === row.webhookId)
          const due = (row: DeliveryRow) => {
            const at = dueAt(row.schedule)
            return (
              at !== null &&
              at <= now &&
              (row.lease === null || row.lease.until <= now) &&
              hookOf(row)?.webhook.enabled === true
            )
          }
          const claimed = yield* Ref.modify(store, (s) => {
            const chosen = s.rows
              .filter(due)
              .sort((a, b) => (dueAt(a.schedule)?.getTime() ?? 0) - (dueAt(b.schedule)?.getTime() ?? 0))
              .slice(0, limit)
            const leased = new Set(chosen)
            const lease = { token, until: leaseUntil }
            return [
              chosen.map((row) => ({ ...row, lease })),
              { ...s, rows: s.rows.map((r) => (leased.has(r) ? { ...r, lease } : r)) }
            ] as const
          })
          return claimed.flatMap((row): Array<ClaimedDelivery> => {
            const hook = hookOf(row)
            const event = recorded.find((e) => e.tenantId === row.tenantId && e.id === row.eventId)
            if (hook === undefined || event === undefined) return []
            return [
              {
                tenantId: row.tenantId,
                id: row.id,
                eventId: row.eventId,
                eventType: row.eventType,
                eventData: event.data,
                occurredAt: event.occurredAt,
                endpoint: {
                  webhookId: hook.webhook.id,
                  url: hook.webhook.url,
                  failingSince: hook.failingSince ?? null
                },
                secrets:
                  hook.previous !== undefined && hook.previous.until > now
                    ? [hook.secret, hook.previous.secret]
                    : [hook.secret],
                schedule: row.schedule,
                leaseToken: token
              }
            ]
          })
        }),
      record: (recorded) =>
        Ref.modify(store, (s) => {
          const kept = recorded.filter((r) =>
            s.rows.some((row) => isIt(r.tenantId, r.id)(row) && row.lease?.token === r.leaseToken)
          )
          const next = {
            rows: s.rows.map((row) => {
              const done = kept.find((r) => isIt(r.tenantId, r.id)(row))
              return done ? { ...row, schedule: done.schedule, lease: null } : row
            }),
            attempts: [
              ...s.attempts,
              ...kept.map((r) => ({ tenantId: r.tenantId, deliveryId: r.id, attempt: r.attempt }))
            ]
          }
          return [kept, next] as const
        }).pipe(
          Effect.flatMap((kept) =>
            Ref.modify(webhooks, (hooks) => {
              const disabled: Array<RecordedAttempt> = []
              const inOrder = [...kept].sort((a, b) => a.attempt.at.getTime() - b.attempt.at.getTime())
              const after = inOrder.reduce(
                (all, r) =>
                  all.map((h) => {
                    if (h.webhook.tenantId !== r.tenantId || h.webhook.id !== r.webhookId) return h
                    switch (r.endpoint._tag) {
                      case "Answering":
                        return { ...h, failingSince: null }
                      case "Failing":
                        return { ...h, failingSince: h.failingSince ?? r.endpoint.since }
                      case "Disable":
                        if (!h.webhook.enabled) return h
                        disabled.push(r)
                        return { ...h, webhook: new Webhook({ ...h.webhook, enabled: false }), failingSince: null }
                    }
                  }),
                hooks
              )
              return [disabled, after] as const
            })
          )
        )
    })
  })
)
