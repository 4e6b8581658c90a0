import type { EventType } from "@cisbook/core/events/Event"
import type { DeliveryId, TenantId, WebhookId } from "@cisbook/core/Ids"
import type { DeliverySchedule } from "@cisbook/core/webhooks/DeliverySchedule"
import type { Webhook } from "@cisbook/core/webhooks/Webhook"
import type { DeliveryAttempt } from "@cisbook/core/webhooks/WebhookDelivery"
import { Effect, type Redacted } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

export interface StoredWebhook {
  readonly webhook: Webhook
  readonly secret: Redacted.Redacted<string>
  /** The secret a rotation replaced, and until when it signs too. */
  readonly previous?: { readonly secret: Redacted.Redacted<string>; readonly until: Date } | undefined
  /** The first failed attempt since the last success. */
  readonly failingSince?: Date | null | undefined
}

/** Every webhook, oldest first, with its secret. */
export class WebhookStore extends Effect.Service<WebhookStore>()("testkit/WebhookStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<StoredWebhook>>([]))
}) {}

export interface DeliveryRow {
  readonly tenantId: TenantId
  readonly id: DeliveryId
  readonly webhookId: WebhookId
  readonly eventId: string
  readonly eventType: EventType
  readonly createdAt: Date
  readonly schedule: DeliverySchedule
  readonly lease: { readonly token: string; readonly until: Date } | null
}

export interface AttemptRow {
  readonly tenantId: TenantId
  readonly deliveryId: DeliveryId
  readonly attempt: DeliveryAttempt
}

/** Deliveries in the order they were queued, and their attempts in the order they were made. */
export class DeliveryStore extends Effect.Service<DeliveryStore>()("testkit/DeliveryStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) =>
    journal.ref<{ readonly rows: ReadonlyArray<DeliveryRow>; readonly attempts: ReadonlyArray<AttemptRow> }>({
      rows: [],
      attempts: []
    })
  )
}) {}
