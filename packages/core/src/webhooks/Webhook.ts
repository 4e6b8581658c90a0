import { Schema } from "effect"
import { EventType } from "../events/Event.js"
import { TenantId, WebhookId } from "../Ids.js"

/** An endpoint of a tenant's that events are delivered to. Its signing secret is kept apart. */
export class Webhook extends Schema.Class<Webhook>("Webhook")({
  id: WebhookId,
  tenantId: TenantId,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  /** The kinds it receives; empty means every kind. */
  eventTypes: Schema.Array(EventType),
  enabled: Schema.Boolean,
  createdAt: Schema.DateFromSelf
}) {
  subscribesTo(type: EventType): boolean {
    return this.eventTypes.length === 0 || this.eventTypes.includes(type)
  }
}
