import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { CisbookApi } from "./Api.js"

/**
 * How a client authenticates: an API key (`cis_...`) or an identity-provider access token.
 * @since 0.1.0
 */
export type Credentials = { readonly apiKey: string } | { readonly accessToken: string } | Record<string, never>

export interface ClientOptions {
  /** Where the service listens, e.g. `https://api.cisbook.example`. Omit it when the HttpClient already targets the service. */
  readonly baseUrl?: string
  readonly credentials?: Credentials
}

const authenticate = (credentials: Credentials | undefined) => (request: HttpClientRequest.HttpClientRequest) => {
  if (credentials && "apiKey" in credentials)
    return HttpClientRequest.setHeader(request, "x-api-key", credentials.apiKey)
  if (credentials && "accessToken" in credentials)
    return HttpClientRequest.bearerToken(request, credentials.accessToken)
  return request
}

/**
 * The typed client, derived from the contract: `client.tenants.createTenant({ payload })`.
 * Failures are the core errors by tag (`NotFound`, `Conflict`, `ValidationFailed`, ...).
 * @since 0.1.0
 */
export const makeClient = (options: ClientOptions = {}) =>
  HttpApiClient.make(CisbookApi, {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    transformClient: HttpClient.mapRequest(authenticate(options.credentials))
  })

export type Client = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** The client over the platform's fetch. */
export const layerFetch = FetchHttpClient.layer

export const makeFetchClient = (options: ClientOptions) => makeClient(options).pipe(Effect.provide(layerFetch))
