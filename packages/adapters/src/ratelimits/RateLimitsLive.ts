import { Effect, Layer } from "effect"
import { rateLimitsFlexible } from "./RateLimitsFlexible.js"
import { RateLimitSettingsConfig } from "./RateLimitSettings.js"

/** The limits the RATE_LIMIT_* settings give, counted in the database every server process shares. */
export const RateLimitsLive = Layer.unwrapEffect(Effect.map(RateLimitSettingsConfig, rateLimitsFlexible))
