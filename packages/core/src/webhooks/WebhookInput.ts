import { Schema } from "effect"
import type { EventType } from "../events/Event.js"

export const WebhookDescription = Schema.Trim.pipe(
  Schema.maxLength(500, { message: () => "A description has at most 500 characters" })
)

/** A new webhook, each member checked by its own rule (the sdk's CreateWebhookRequest decodes to it). */
export interface NewWebhook {
  /** A WebhookUrl. */
  readonly url: string
  readonly description?: string | undefined
  readonly eventTypes?: ReadonlyArray<EventType> | undefined
  readonly enabled?: boolean | undefined
}

/** Every editable member of a webhook (the sdk's ReplaceWebhookRequest decodes to it). */
export interface WebhookReplacement {
  /** A WebhookUrl. */
  readonly url: string
  readonly description?: string | undefined
  readonly eventTypes: ReadonlyArray<EventType>
  readonly enabled: boolean
}
