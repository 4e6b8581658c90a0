import { Context, type Effect } from "effect"
import type { NewEvent } from "./Event.js"
import type { TenantId } from "../Ids.js"

/**
 * The transactional outbox. A use case records its events inside the same `Transactor`
 * transaction as the change that causes them, so an event exists exactly when its change does;
 * with each event it queues one delivery to every enabled webhook of the tenant that
 * subscribes to its kind.
 */
export class EventOutbox extends Context.Tag("core/EventOutbox")<
  EventOutbox,
  { readonly record: (tenantId: TenantId, events: ReadonlyArray<NewEvent>) => Effect.Effect<void> }
>() {}
