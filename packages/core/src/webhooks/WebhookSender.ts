import { Context, type Effect, type Redacted } from "effect"

/** One signed POST of a webhook body. */
export interface OutgoingWebhook {
  readonly url: string
  /** Each signs it: one `v1,` entry per secret in `webhook-signature`, space-separated. */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  /** The `webhook-id`: the same on every attempt of the delivery. */
  readonly messageId: string
  /** The `webhook-timestamp`: this attempt's. */
  readonly timestamp: Date
  readonly body: string
}

/** What came of an attempt: a receiver's answer, or why there was none. */
export interface SendOutcome {
  readonly responseStatus: number | null
  readonly responseBody: string | null
  readonly durationMs: number
  readonly error: string | null
}

/** Sends webhooks per Standard Webhooks; every failure is an outcome, never an error. */
export class WebhookSender extends Context.Tag("core/WebhookSender")<
  WebhookSender,
  {
    readonly send: (message: OutgoingWebhook) => Effect.Effect<SendOutcome>
    /**
     * Sends the messages all at once and answers when the last has its outcome: the outcomes in
     * the messages' order. A dispatcher's batch costs one effect, not one an attempt.
     */
    readonly sendAll: (messages: ReadonlyArray<OutgoingWebhook>) => Effect.Effect<ReadonlyArray<SendOutcome>>
  }
>() {}
