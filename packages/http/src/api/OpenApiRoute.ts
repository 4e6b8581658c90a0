import { HttpApi, HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect } from "effect"

/**
 * `GET <path>`: the API's OpenAPI document, as HttpApiBuilder.middlewareOpenApi serves it, but
 * made at the first request and kept, rather than at every start (a few hundred milliseconds of
 * CPU that a server answering no one's request for it need not spend).
 */
export const openApiRoute = (path: `/${string}`) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function* () {
      const { api } = yield* HttpApi.Api
      const document = yield* Effect.cached(
        Effect.suspend(() => HttpServerResponse.json(OpenApi.fromApi(api))).pipe(Effect.orDie)
      )
      yield* router.get(path, document)
    })
  )
