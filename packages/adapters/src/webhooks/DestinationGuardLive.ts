import { DestinationGuard } from "@cisbook/core/webhooks/DestinationGuard"
import { Effect, Layer } from "effect"
import { destinationOf } from "./Destinations.js"

/**
 * Checks a URL when a webhook is created or replaced. A host that does not resolve now is let
 * through (it may by the time of delivery, which checks again); one that resolves to a private
 * address is refused.
 */
export const destinationGuard = (options: { readonly allowPrivateTargets: boolean }) =>
  Layer.succeed(
    DestinationGuard,
    DestinationGuard.of({
      check: (url) =>
        destinationOf(new URL(url), options.allowPrivateTargets).pipe(
          Effect.asVoid,
          Effect.catchTag("Unresolved", () => Effect.void)
        )
    })
  )
