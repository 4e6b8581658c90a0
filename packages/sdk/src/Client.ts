import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { CisbookApi } from "./Api.js"
import { sendIdempotencyKey } from "./IdempotencyKey.js"

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

const derive = (options: ClientOptions) =>
  HttpApiClient.make(CisbookApi, {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    transformClient: (client) =>
      client.pipe(
        HttpClient.mapRequest(authenticate(options.credentials)),
        HttpClient.mapRequestEffect(sendIdempotencyKey)
      )
  })

type Derived = Effect.Effect.Success<ReturnType<typeof derive>>

/** The payments report as asked for: the tenant and the period. */
export type PaymentsReportRequest = Omit<
  Parameters<Derived["salesInvoices"]["listSalesInvoicePayments"]>[0],
  "headers" | "withResponse"
>

/**
 * The payments report endpoint answers JSON or CSV by the Accept header: the client offers one
 * method per form, each with its own result type.
 */
const withPaymentsReportForms = (client: Derived) => {
  const report = (request: PaymentsReportRequest, accept: "application/json" | "text/csv") =>
    client.salesInvoices.listSalesInvoicePayments({ ...request, headers: { accept } })
  return {
    ...client,
    salesInvoices: {
      ...client.salesInvoices,
      /** The report as JSON: one item per payment, oldest first. */
      listSalesInvoicePayments: (request: PaymentsReportRequest) =>
        Effect.flatMap(report(request, "application/json"), (body) =>
          typeof body === "string"
            ? Effect.dieMessage("The payments report came as CSV, not JSON")
            : Effect.succeed(body)
        ),
      /** The same report as the text of a CSV file. */
      salesInvoicePaymentsCsv: (request: PaymentsReportRequest) =>
        Effect.flatMap(report(request, "text/csv"), (body) =>
          typeof body === "string"
            ? Effect.succeed(body)
            : Effect.dieMessage("The payments report came as JSON, not CSV")
        )
    }
  }
}

/**
 * The typed client, derived from the contract: `client.tenants.createTenant({ payload })`.
 * Failures are the core errors by tag (`NotFound`, `Conflict`, `ValidationFailed`, ...).
 * Money is integer pence in the client (the wire carries pounds). Pipe a create through
 * `withIdempotencyKey(key)` (IdempotencyKey.ts) to make retrying it safe.
 * @since 0.1.0
 */
export const makeClient = (options: ClientOptions = {}) => Effect.map(derive(options), withPaymentsReportForms)

export type Client = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** The client over the platform's fetch. */
export const layerFetch = FetchHttpClient.layer

export const makeFetchClient = (options: ClientOptions) => makeClient(options).pipe(Effect.provide(layerFetch))
