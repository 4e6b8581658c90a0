import { Config, Duration } from "effect"

/** The time limit of each try of a GoCardless call unless GOCARDLESS_TIMEOUT_MS says otherwise. */
export const DEFAULT_TIMEOUT = Duration.seconds(10)

/** GOCARDLESS_TIMEOUT_MS: the time limit of each try of a GoCardless call (10000 unless set). */
export const TimeoutConfig = Config.withDefault(
  Config.integer("GOCARDLESS_TIMEOUT_MS").pipe(
    Config.validate({
      message: "Must be a whole number of milliseconds from 100 to 120000",
      validation: (ms) => ms >= 100 && ms <= 120_000
    }),
    Config.map(Duration.millis)
  ),
  DEFAULT_TIMEOUT
)
