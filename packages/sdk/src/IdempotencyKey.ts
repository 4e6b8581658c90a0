import { HttpClientRequest } from "@effect/platform"
import { Effect, FiberRef, Option } from "effect"

/** The Idempotency-Key the client sends with the requests of the current fiber, if any. */
export const currentIdempotencyKey: FiberRef.FiberRef<Option.Option<string>> = FiberRef.unsafeMake(
  Option.none<string>()
)

/**
 * Sends the requests of `effect` with an `Idempotency-Key`, so that retrying it (with the same
 * key and the same request) within 24 hours does the work once and answers the first answer:
 *
 * ```ts
 * const key = crypto.randomUUID()
 * const create = client.contacts.createContact({ path, payload }).pipe(withIdempotencyKey(key))
 * yield* create.pipe(Effect.retry({ times: 3, while: isTransient }))
 * ```
 * @since 0.1.0
 */
export const withIdempotencyKey =
  (key: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.locally(effect, currentIdempotencyKey, Option.some(key))

/** Adds the fiber's Idempotency-Key to a request. */
export const sendIdempotencyKey = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.map(FiberRef.get(currentIdempotencyKey), (key) =>
    Option.match(key, {
      onNone: () => request,
      onSome: (value) => HttpClientRequest.setHeader(request, "idempotency-key", value)
    })
  )
