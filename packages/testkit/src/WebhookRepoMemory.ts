import type { TenantId, WebhookId } from "@cisbook/core/Ids"
import { WebhookRepo } from "@cisbook/core/webhooks/WebhookRepo"
import { Effect, Layer, Option, Order, Ref } from "effect"
import { DeliveryStore, type StoredWebhook, WebhookStore } from "./WebhookStores.js"

const isIt = (tenantId: TenantId, id: WebhookId) => (s: StoredWebhook) =>
  s.webhook.tenantId === tenantId && s.webhook.id === id

export const WebhookRepoMemory = Layer.effect(
  WebhookRepo,
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const deliveries = yield* DeliveryStore
    const change = (tenantId: TenantId, id: WebhookId, f: (stored: StoredWebhook) => StoredWebhook) =>
      Ref.modify(store, (all) => {
        const hit = all.some(isIt(tenantId, id))
        return [hit, hit ? all.map((s) => (isIt(tenantId, id)(s) ? f(s) : s)) : all] as const
      })
    return WebhookRepo.of({
      insert: (webhook, secret) => Ref.update(store, (all) => [...all, { webhook, secret }]),
      find: (tenantId, id) =>
        Effect.map(Ref.get(store), (all) => Option.fromNullable(all.find(isIt(tenantId, id))?.webhook)),
      list: (tenantId) =>
        Effect.map(Ref.get(store), (all) =>
          all
            .filter((s) => s.webhook.tenantId === tenantId)
            .map((s) => s.webhook)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || Order.string(a.id, b.id))
        ),
      update: (webhook) =>
        Effect.asVoid(
          change(webhook.tenantId, webhook.id, (s) => ({
            ...s,
            webhook,
            failingSince: s.webhook.enabled ? s.failingSince : null
          }))
        ),
      remove: (tenantId, id) =>
        Ref.modify(
          store,
          (all) => [all.some(isIt(tenantId, id)), all.filter((s) => !isIt(tenantId, id)(s))] as const
        ).pipe(
          Effect.tap((removed) =>
            removed
              ? Ref.update(deliveries, (d) => ({
                  ...d,
                  rows: d.rows.filter((r) => !(r.tenantId === tenantId && r.webhookId === id))
                }))
              : Effect.void
          )
        ),
      setSecret: (tenantId, id, secret, previousUntil) =>
        change(tenantId, id, (s) => ({ ...s, secret, previous: { secret: s.secret, until: previousUntil } }))
    })
  })
)
