import { Context, Data, type Duration, type Effect } from "effect"
import type { UserId } from "../Ids.js"

/** Over a limit: ask again after `retryAfter`. */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly retryAfter: Duration.Duration
  /** Which limit, for the caller: "authentication failures from this address" or "requests". */
  readonly limit: "AuthenticationFailures" | "Requests"
}> {}

/** How often a client may fail to authenticate, and how many requests a user may make. */
export class RateLimits extends Context.Tag("core/RateLimits")<
  RateLimits,
  {
    /** Refused while the client address has failed to authenticate too often; counts nothing. */
    readonly mayAuthenticate: (address: string) => Effect.Effect<void, RateLimited>
    /** Counts a failed authentication from the client address. */
    readonly authenticationFailed: (address: string) => Effect.Effect<void>
    /** Counts a request of the user (with any of their keys or tokens); refused over their budget. */
    readonly request: (userId: UserId) => Effect.Effect<void, RateLimited>
  }
>() {}
