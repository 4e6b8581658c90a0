import { ProviderWebhookSignature } from "@cisbook/core/billing/providerevents/ProviderWebhookSignature"
import { Effect, Layer } from "effect"

/** The signature a test signs with: valid is exactly "signed:" followed by the body. */
export const fakeSignatureOf = (body: string) => `signed:${body}`

export const ProviderWebhookSignatureFake = Layer.succeed(
  ProviderWebhookSignature,
  ProviderWebhookSignature.of({ verify: (body, signature) => Effect.succeed(signature === fakeSignatureOf(body)) })
)
