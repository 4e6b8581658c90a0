import { WebhookId } from "@cisbook/core/Ids"
import { DeliveryRepo } from "@cisbook/core/webhooks/DeliveryRepo"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { WebhookRepo } from "@cisbook/core/webhooks/WebhookRepo"
import { Webhook } from "@cisbook/core/webhooks/Webhook"
import { expect } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { at, type ContractIt, fresh, storedTenant, storedWebhook } from "./Fixtures.js"

const everything = { webhookId: null, status: null, offset: 0, limit: 50 } as const

export const webhookRepoContract = (it: ContractIt) => {
  it.effect("finds an inserted webhook, and lists a tenant's webhooks oldest first", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookRepo
      const tenant = yield* storedTenant
      const later = yield* storedWebhook(tenant, { createdAt: at(5), eventTypes: ["contact.created"] })
      const earlier = yield* storedWebhook(tenant, { createdAt: at(1), enabled: false })
      const described = new Webhook({ ...earlier.webhook, description: "Accounts system" })
      yield* repo.update(described)
      expect(yield* repo.find(tenant.id, later.webhook.id)).toEqual(Option.some(later.webhook))
      expect(yield* repo.list(tenant.id)).toEqual([described, later.webhook])
    })
  )

  it.effect("keeps each tenant's webhooks apart: another tenant finds, changes and removes none of them", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      const { webhook } = yield* storedWebhook(mine)
      expect(yield* repo.find(theirs.id, webhook.id)).toEqual(Option.none())
      expect(yield* repo.list(theirs.id)).toEqual([])
      yield* repo.update(new Webhook({ ...webhook, tenantId: theirs.id, url: "https://elsewhere.example.com/" }))
      expect(yield* repo.remove(theirs.id, webhook.id)).toBe(false)
      expect(yield* repo.setSecret(theirs.id, webhook.id, Redacted.make("whsec_theirs"), at(9))).toBe(false)
      expect(yield* repo.find(mine.id, webhook.id)).toEqual(Option.some(webhook))
    })
  )

  it.effect("replaces the url, description, event types and enabled flag", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookRepo
      const tenant = yield* storedTenant
      const { webhook } = yield* storedWebhook(tenant, { eventTypes: ["contact.created"] })
      const replaced = new Webhook({
        ...webhook,
        url: "https://other.example.com/hook?x=1",
        description: "New",
        eventTypes: ["contact.deleted", "subcontractor.created"],
        enabled: false
      })
      yield* repo.update(replaced)
      expect(yield* repo.find(tenant.id, webhook.id)).toEqual(Option.some(replaced))
      yield* repo.update(new Webhook({ ...replaced, description: null, eventTypes: [] }))
      expect(Option.map(yield* repo.find(tenant.id, webhook.id), (w) => [w.description, w.eventTypes])).toEqual(
        Option.some([null, []])
      )
    })
  )

  it.effect("removes a webhook with its deliveries, once", () =>
    Effect.gen(function* () {
      const repo = yield* WebhookRepo
      const deliveries = yield* DeliveryRepo
      const tenant = yield* storedTenant
      const gone = yield* storedWebhook(tenant)
      const kept = yield* storedWebhook(tenant)
      yield* (yield* EventOutbox).record(tenant.id, [{ type: "contact.created", data: {} }])
      expect((yield* deliveries.list(tenant.id, everything)).totalCount).toBe(2)
      expect(yield* repo.remove(tenant.id, gone.webhook.id)).toBe(true)
      expect(yield* repo.remove(tenant.id, gone.webhook.id)).toBe(false)
      expect(yield* repo.find(tenant.id, gone.webhook.id)).toEqual(Option.none())
      const left = yield* deliveries.list(tenant.id, everything)
      expect(left.items.map((d) => d.webhookId)).toEqual([kept.webhook.id])
      const { id } = yield* fresh
      expect(yield* repo.remove(tenant.id, WebhookId.make(id))).toBe(false)
    })
  )
}
