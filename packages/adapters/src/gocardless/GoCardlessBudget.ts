import { Duration, Effect, Option, Ref } from "effect"
import { pauseOf } from "./HeaderPause.js"

/** What GoCardless last said is left of the access token's requests, and when they are whole again. */
interface Left {
  readonly remaining: number
  /** Epoch milliseconds, by the Effect Clock of the answer's arrival. */
  readonly resetsAt: number
}

/** What an answer's RateLimit-Remaining and RateLimit-Reset say, when it carries both (and RateLimit-Limit). */
const leftOf = (headers: Readonly<Record<string, string>>, now: number): Option.Option<Left> => {
  const remaining = headers["ratelimit-remaining"]?.trim() ?? ""
  if (headers["ratelimit-limit"] === undefined || !/^\d+$/.test(remaining)) return Option.none()
  return Option.map(pauseOf(headers["ratelimit-reset"], now), (pause) => ({
    remaining: Number(remaining),
    resetsAt: now + Duration.toMillis(pause)
  }))
}

/**
 * Of two answers, the one that says most about now: the later window, or within one window the
 * fewer left (answers of concurrent calls arrive in any order).
 */
const newer = (known: Left, heard: Left): Left =>
  heard.resetsAt > known.resetsAt || (heard.resetsAt === known.resetsAt && heard.remaining < known.remaining)
    ? heard
    : known

/**
 * One GoCardless client's budget of requests (GoCardless allows an access token 1,000 a minute),
 * as its answers' RateLimit-* headers tell it. Other processes spend the same token's budget,
 * so the headers, not a count of our own calls, are what is left.
 */
export interface GoCardlessBudget {
  /** Remembers what an answer says is left, if it says. */
  readonly heard: (headers: Readonly<Record<string, string>>, now: number) => Effect.Effect<void>
  /**
   * How long a caller that leaves `reserve` requests to others waits before its call: until the
   * reset when no more than `reserve` are left and the reset is still ahead; none otherwise.
   */
  readonly pauseBefore: (reserve: number, now: number) => Effect.Effect<Option.Option<Duration.Duration>>
}

export const makeGoCardlessBudget: Effect.Effect<GoCardlessBudget> = Effect.map(
  Ref.make(Option.none<Left>()),
  (last) => ({
    heard: (headers, now) =>
      Option.match(leftOf(headers, now), {
        onNone: () => Effect.void,
        onSome: (heard) =>
          Ref.update(last, (known) => Option.some(Option.isSome(known) ? newer(known.value, heard) : heard))
      }),
    pauseBefore: (reserve, now) =>
      Effect.map(Ref.get(last), (known) =>
        Option.flatMap(known, ({ remaining, resetsAt }) =>
          remaining <= reserve && resetsAt > now ? Option.some(Duration.millis(resetsAt - now)) : Option.none()
        )
      )
  })
)
