import type { HttpClientResponse } from "@effect/platform"
import { Cause, Effect, Exit } from "effect"
import { type Client, type ClientOptions, makeFetchClient } from "./Client.js"

// The Effect client's methods are generic in `withResponse`; without it they answer the body alone.
type Promised<F> = F extends (...args: infer Args) => Effect.Effect<infer A, infer _E, infer _R>
  ? (...args: Args) => Promise<Exclude<A, [unknown, HttpClientResponse.HttpClientResponse]>>
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
          (...args: Array<unknown>) =>
            Effect.runPromiseExit(operation(...args)).then((exit) =>
              Exit.isSuccess(exit) ? exit.value : Promise.reject(Cause.squash(exit.cause))
            )
        ])
      )
    ])
  ) as unknown as PromiseClient
}
