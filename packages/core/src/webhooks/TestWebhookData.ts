import { Schema } from "effect"

/** The `data` of a test.webhook event. */
export const TestWebhookData = Schema.Struct({
  webhookId: Schema.String.annotations({ description: "The webhook the test was sent to" }),
  message: Schema.String
}).annotations({
  identifier: "TestWebhookData",
  examples: [
    { webhookId: "0193a5f2-7c1e-7b61-9d2a-3f4e5a6b7c8d", message: "A test event from cisbook: this webhook works." }
  ]
})
export type TestWebhookData = typeof TestWebhookData.Type

export const testWebhookData = (webhookId: string): TestWebhookData => ({
  webhookId,
  message: "A test event from cisbook: this webhook works."
})
