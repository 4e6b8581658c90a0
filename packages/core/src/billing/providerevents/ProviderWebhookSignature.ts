import { Context, type Effect } from "effect"

/**
 * Whether a webhook body is the direct debit provider's own: its signature is made with the
 * secret the service shares with the provider. Constant time whatever the signature is.
 */
export class ProviderWebhookSignature extends Context.Tag("core/ProviderWebhookSignature")<
  ProviderWebhookSignature,
  { readonly verify: (body: string, signature: string | undefined) => Effect.Effect<boolean> }
>() {}
