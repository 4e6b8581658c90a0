import { Schema } from "effect"

/** The `data` of a test.webhook event, written when the test is queued. */
export const TestWebhookEventData = Schema.Struct({
  webhookId: Schema.String.annotations({ description: "The webhook the test was sent to" }),
  message: Schema.String
}).annotations({
  identifier: "TestWebhookData",
  examples: [
    { webhookId: "0193a5f2-7c1e-7b61-9d2a-3f4e5a6b7c8d", message: "A test event from cisbook: this webhook works." }
  ]
})
export type TestWebhookEventData = typeof TestWebhookEventData.Type

export const testWebhookEventData = (webhookId: string): TestWebhookEventData => ({
  webhookId,
  message: "A test event from cisbook: this webhook works."
})
