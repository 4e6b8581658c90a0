import { Duration, Option } from "effect"

/** A header's pause: whole seconds, or an HTTP date (as GoCardless's RateLimit-Reset is) from `now`. */
export const pauseOf = (value: string | undefined, now: number): Option.Option<Duration.Duration> => {
  if (value === undefined || value.trim() === "") return Option.none()
  if (/^\d+$/.test(value.trim())) return Option.some(Duration.seconds(Number(value.trim())))
  const at = Date.parse(value)
  return Number.isNaN(at) ? Option.none() : Option.some(Duration.millis(Math.max(0, at - now)))
}
