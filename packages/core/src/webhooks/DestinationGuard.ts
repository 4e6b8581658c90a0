import { Context, Data, type Effect } from "effect"

/** The service may not send to this URL; `reason` says why, for the caller. */
export class DestinationRefused extends Data.TaggedError("DestinationRefused")<{ readonly reason: string }> {}

/** Tells whether webhooks may be sent to a URL (scheme, and where its host resolves to). */
export class DestinationGuard extends Context.Tag("core/DestinationGuard")<
  DestinationGuard,
  { readonly check: (url: string) => Effect.Effect<void, DestinationRefused> }
>() {}
