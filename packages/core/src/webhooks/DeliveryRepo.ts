import { Context, type Effect, type Option, type Redacted } from "effect"
import type { EventType, NewEvent } from "../events/Event.js"
import type { DeliveryId, TenantId, WebhookId } from "../Ids.js"
import type { DeliveryQuery } from "./DeliveryQuery.js"
import type { DeliverySchedule } from "./DeliverySchedule.js"
import type { Endpoint, EndpointVerdict } from "./EndpointHealth.js"
import type { DeliveryAttempt, DeliveryDetail, WebhookDelivery } from "./WebhookDelivery.js"

export interface DeliveryPage {
  readonly items: ReadonlyArray<WebhookDelivery>
  /** Every delivery that matches the query, on any page. */
  readonly totalCount: number
}

/** A due delivery, leased to one dispatcher, with all it takes to send it. */
export interface ClaimedDelivery {
  readonly tenantId: TenantId
  readonly id: DeliveryId
  readonly eventId: string
  readonly eventType: EventType
  readonly eventData: unknown
  readonly occurredAt: Date
  /** The webhook it goes to: its id, URL and failing streak. */
  readonly endpoint: Endpoint
  /** The webhook's secret, then a rotated-out one still in its 24 hours: each signs the attempt. */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  readonly schedule: DeliverySchedule
  /** Identifies this lease; an attempt is recorded only while the lease is still this one. */
  readonly leaseToken: string
}

/** An attempt made under a lease, and the schedule it leaves. */
export interface RecordedAttempt {
  readonly tenantId: TenantId
  readonly id: DeliveryId
  readonly leaseToken: string
  readonly attempt: DeliveryAttempt
  readonly schedule: DeliverySchedule
  readonly webhookId: WebhookId
  /** What the attempt says about the webhook: answering, failing since when, or to be disabled. */
  readonly endpoint: EndpointVerdict
}

/**
 * Deliveries: read by the tenant's API, retried on request, and worked through by the
 * dispatchers. Deliveries are created by the EventOutbox, and by `queueFor` for one webhook.
 */
export class DeliveryRepo extends Context.Tag("core/DeliveryRepo")<
  DeliveryRepo,
  {
    /** Records an event for one webhook of the tenant alone (a test), whatever it subscribes to, and queues it. */
    readonly queueFor: (tenantId: TenantId, webhookId: WebhookId, event: NewEvent) => Effect.Effect<DeliveryId>
    readonly find: (tenantId: TenantId, id: DeliveryId) => Effect.Effect<Option.Option<DeliveryDetail>>
    /** Newest first. */
    readonly list: (tenantId: TenantId, query: DeliveryQuery) => Effect.Effect<DeliveryPage>
    /**
     * Asks for one more attempt at once, for a Failed delivery that no dispatcher holds: it
     * becomes Pending with its automatic schedule kept. False when it is not in that state.
     */
    readonly requestRetry: (tenantId: TenantId, id: DeliveryId, at: Date) => Effect.Effect<boolean>
    /**
     * Leases up to `limit` deliveries due at `now` (of every tenant, to enabled webhooks) until
     * `leaseUntil`, earliest due first; each is leased to one caller however many claim at once.
     * A lease that runs out unrecorded makes the delivery due again.
     */
    readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
    /**
     * Records attempts and ends their leases; an attempt whose lease was taken over is dropped.
     * Applies each recorded attempt's verdict to its webhook, oldest first: an answer ends the
     * failing streak, a failure starts it (if none), a Disable disables an enabled webhook.
     * Returns the attempts whose Disable disabled their webhook just now (one per webhook).
     */
    readonly record: (attempts: ReadonlyArray<RecordedAttempt>) => Effect.Effect<ReadonlyArray<RecordedAttempt>>
  }
>() {}
