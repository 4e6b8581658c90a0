import { Config, Duration } from "effect"

/** At most `points` in each `window`; 0 points is no limit. */
export interface RateLimit {
  readonly points: number
  readonly window: Duration.Duration
}

export interface RateLimitSettings {
  /** Failed authentications per client address, counted in the database every process shares. */
  readonly authenticationFailures: RateLimit
  /**
   * Requests per user, with any of their API keys or tokens: counted by each server process in
   * its memory, or, when `shared`, in the database (exact across processes, one more statement a request).
   */
  readonly requests: RateLimit & { readonly shared: boolean }
}

const wholeNumber = (name: string, fallback: number, min: number) =>
  Config.withDefault(
    Config.integer(name).pipe(
      Config.validate({ message: `Must be a whole number, ${min} or more`, validation: (n) => n >= min })
    ),
    fallback
  )

const rateLimit = (name: string, points: number, windowSeconds: number): Config.Config<RateLimit> =>
  Config.all({
    points: wholeNumber(name, points, 0),
    window: Config.map(wholeNumber(`${name}_WINDOW_SECONDS`, windowSeconds, 1), Duration.seconds)
  })

/**
 * RATE_LIMIT_AUTH_FAILURES per RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS (50 a minute) and
 * RATE_LIMIT_REQUESTS per RATE_LIMIT_REQUESTS_WINDOW_SECONDS (1,200 a minute), counted per
 * process unless RATE_LIMIT_REQUESTS_SHARED; 0 turns a limit off.
 */
export const RateLimitSettingsConfig: Config.Config<RateLimitSettings> = Config.all({
  authenticationFailures: rateLimit("RATE_LIMIT_AUTH_FAILURES", 50, 60),
  requests: Config.all({
    limit: rateLimit("RATE_LIMIT_REQUESTS", 1200, 60),
    shared: Config.withDefault(Config.boolean("RATE_LIMIT_REQUESTS_SHARED"), false)
  }).pipe(Config.map(({ limit, shared }) => ({ ...limit, shared })))
})

/**
 * Requests per client address to the sandboxes the server serves (`/sandbox/gocardless`,
 * `/sandbox/govtalk`): RATE_LIMIT_SANDBOX_REQUESTS per RATE_LIMIT_SANDBOX_REQUESTS_WINDOW_SECONDS
 * (1,000 a minute, GoCardless's own limit); 0 turns it off.
 */
export const SandboxRateLimitConfig: Config.Config<RateLimit> = rateLimit("RATE_LIMIT_SANDBOX_REQUESTS", 1000, 60)
