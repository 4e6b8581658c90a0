import { Context, type Effect } from "effect"

/**
 * Whether a notification's body is the direct debit provider's own: its signature is made with the
 * secret the service shares with the provider. Constant time whatever the signature is.
 */
export class ProviderEventSignature extends Context.Tag("core/ProviderEventSignature")<
  ProviderEventSignature,
  { readonly verify: (body: string, signature: string | undefined) => Effect.Effect<boolean> }
>() {}
