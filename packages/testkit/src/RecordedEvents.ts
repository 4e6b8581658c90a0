import type { EventType } from "@cisbook/core/events/Event"
import type { TenantId } from "@cisbook/core/Ids"
import { Context, type Effect } from "effect"

/** An event as the outbox stored it. */
export interface RecordedEvent {
  readonly id: string
  readonly tenantId: TenantId
  readonly type: EventType
  readonly data: unknown
  readonly occurredAt: Date
}

/**
 * Reads back what the EventOutbox recorded, for tests only: production code reads events
 * through whatever the webhooks capability adds.
 */
export class RecordedEvents extends Context.Tag("testkit/RecordedEvents")<
  RecordedEvents,
  { readonly list: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<RecordedEvent>> }
>() {}
