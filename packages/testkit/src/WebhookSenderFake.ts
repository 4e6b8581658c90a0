import { type OutgoingWebhook, type SendOutcome, WebhookSender } from "@cisbook/core/webhooks/WebhookSender"
import { Effect, Layer, Ref } from "effect"

export const answered = (responseStatus: number, responseBody = ""): SendOutcome => ({
  responseStatus,
  responseBody,
  durationMs: 3,
  error: null
})

/** Stands in for the HTTP sender: keeps what was sent, and answers as a test says (200 by default). */
export class WebhookSenderFake extends Effect.Service<WebhookSenderFake>()("testkit/WebhookSenderFake", {
  effect: Effect.gen(function* () {
    const sent = yield* Ref.make<ReadonlyArray<OutgoingWebhook>>([])
    const answer = yield* Ref.make<(message: OutgoingWebhook) => SendOutcome>(() => answered(200, "ok"))
    return {
      sent: Ref.get(sent),
      answerWith: (f: (message: OutgoingWebhook) => SendOutcome) => Ref.set(answer, f),
      record: (message: OutgoingWebhook) =>
        Ref.update(sent, (all) => [...all, message]).pipe(
          Effect.zipRight(Ref.get(answer)),
          Effect.map((f) => f(message))
        )
    } as const
  })
}) {}

export const WebhookSenderMemory = Layer.effect(
  WebhookSender,
  Effect.map(WebhookSenderFake, (fake) =>
    WebhookSender.of({ send: fake.record, sendAll: (messages) => Effect.forEach(messages, fake.record) })
  )
).pipe(Layer.provideMerge(WebhookSenderFake.Default))
