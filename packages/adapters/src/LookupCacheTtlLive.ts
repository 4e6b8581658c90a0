import { LookupCacheTtl } from "@cisbook/core/LookupCache"
import { Config, Duration, Effect, Layer } from "effect"

/** AUTH_CACHE_SECONDS: how long credentials and memberships are reused (0 reads them on every request). */
export const LookupCacheTtlLive = Layer.effect(
  LookupCacheTtl,
  Effect.map(
    Config.withDefault(
      Config.integer("AUTH_CACHE_SECONDS").pipe(
        Config.validate({ message: "must be 0 or more", validation: (seconds) => seconds >= 0 })
      ),
      10
    ),
    Duration.seconds
  )
)
