import { Duration } from "effect"
import type { EventType } from "../events/Event.js"

/** A receiver that has not answered by then has failed the attempt. */
export const ATTEMPT_TIMEOUT = Duration.seconds(15)

/** How much of a receiver's answer is kept. */
export const MAX_RESPONSE_BODY_BYTES = 4096

/** The body a receiver gets, as Standard Webhooks recommends: the kind, when it happened, and its data. */
export const webhookBody = (event: {
  readonly type: EventType
  readonly occurredAt: Date
  readonly data: unknown
}): string => JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data })
