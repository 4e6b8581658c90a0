import type { HttpClientResponse } from "@effect/platform"
import { Cause, Effect, Exit } from "effect"
import { type Client, type ClientOptions, makeFetchClient } from "./Client.js"
import { withIdempotencyKey } from "./IdempotencyKey.js"

/** Options of one call. */
export interface CallOptions {
  /**
   * Sent as `Idempotency-Key`: a retry of the same request with the same key within 24 hours
   * does the work once and resolves to the first answer. Use a new random key per operation.
   */
  readonly idempotencyKey?: string
}

// The Effect client's methods are generic in `withResponse`; without it they answer the body alone.
type Promised<F> = F extends (...args: infer Args) => Effect.Effect<infer A, infer _E, infer _R>
  ? (...args: [...Args, options?: CallOptions]) => Promise<Exclude<A, [unknown, HttpClientResponse.HttpClientResponse]>>
  : never

/** The same operations as the Effect client, returning Promises; a failure rejects with the typed error. */
export type PromiseClient = {
  readonly [Group in keyof Client]: { readonly [Operation in keyof Client[Group]]: Promised<Client[Group][Operation]> }
}

/**
 * A client for TypeScript services that do not use Effect.
 *
 * ```ts
 * const cisbook = await createPromiseClient({ baseUrl: "http://localhost:3000", credentials: { apiKey } })
 * const tenant = await cisbook.tenants.createTenant({ payload: { code: "acme", name: "Acme Ltd" } })
 * // Safe to retry: the same key answers the first answer again.
 * await cisbook.contacts.createContact({ path, payload }, { idempotencyKey: crypto.randomUUID() })
 * ```
 */
export const createPromiseClient = async (options: ClientOptions): Promise<PromiseClient> => {
  const client = await Effect.runPromise(makeFetchClient(options))
  const groups = Object.entries(
    client as unknown as Record<string, Record<string, (...args: Array<unknown>) => Effect.Effect<unknown, unknown>>>
  )
  return Object.fromEntries(
    groups.map(([group, operations]) => [
      group,
      Object.fromEntries(
        Object.entries(operations).map(([name, operation]) => [
          name,
          // runPromise would reject with a FiberFailure wrapping the error; callers get the error itself.
          (request?: unknown, options?: CallOptions) =>
            Effect.runPromiseExit(
              options?.idempotencyKey === undefined
                ? operation(request)
                : withIdempotencyKey(options.idempotencyKey)(operation(request))
            ).then((exit) => (Exit.isSuccess(exit) ? exit.value : Promise.reject(Cause.squash(exit.cause))))
        ])
      )
    ])
  ) as unknown as PromiseClient
}
