import { ProviderEventSignature } from "@cisbook/core/billing/providerevents/ProviderEventSignature"
import { Effect, Layer } from "effect"

/** The signature a test signs with: valid is exactly "signed:" followed by the body. */
export const fakeSignatureOf = (body: string) => `signed:${body}`

export const ProviderEventSignatureFake = Layer.succeed(
  ProviderEventSignature,
  ProviderEventSignature.of({ verify: (body, signature) => Effect.succeed(signature === fakeSignatureOf(body)) })
)
