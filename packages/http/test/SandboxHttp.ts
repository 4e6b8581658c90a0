import { HttpClient, HttpClientRequest } from "@effect/platform"
import { ConfigProvider, Effect, Layer } from "effect"
import { raw, uniqueEmail } from "./E2E.js"

export const SANDBOX = "/sandbox/gocardless"

/** A request to the sandbox as any GoCardless client sends it, and its status, content type and JSON body. */
export const sandbox = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
  raw(undefined, method, `${SANDBOX}${path}`, body)

/** The hosted page's form, posted as a browser without JavaScript posts it. */
export const postBankDetails = (redirectUrl: string) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(
      HttpClientRequest.post(new URL(redirectUrl).pathname).pipe(
        HttpClientRequest.bodyUrlParams({
          account_holder_name: "Ada Lovelace",
          sort_code: "20-00-00",
          account_number: "55779911"
        })
      )
    )
  ).pipe(Effect.map((response) => ({ status: response.status, location: response.headers["location"] })))

/** A mandate set up through the sandbox's own API and hosted page: the fulfilled billing request's links. */
export const sandboxMandate = Effect.gen(function* () {
  const request = yield* sandbox("POST", "/billing_requests", {
    billing_requests: { mandate_request: { scheme: "bacs", currency: "GBP" } }
  })
  const id = String(request.body?.billing_requests.id)
  const flow = yield* sandbox("POST", "/billing_request_flows", {
    billing_request_flows: {
      redirect_uri: "https://app.example/done",
      prefilled_customer: { email: uniqueEmail("customer"), given_name: "Ada", family_name: "Lovelace" },
      links: { billing_request: id }
    }
  })
  yield* postBankDetails(String(flow.body?.billing_request_flows.authorisation_url))
  const done = yield* sandbox("GET", `/billing_requests/${id}`)
  const links = done.body?.billing_requests.links as {
    mandate_request_mandate: string
    customer: string
    customer_bank_account: string
  }
  return {
    mandate: links.mandate_request_mandate,
    customer: links.customer,
    customer_bank_account: links.customer_bank_account
  }
})

/** Settings for a test app, over the environment's. */
export const withSettings = (settings: Record<string, string>) =>
  Layer.setConfigProvider(
    ConfigProvider.fromMap(new Map(Object.entries(settings))).pipe(
      ConfigProvider.orElse(() => ConfigProvider.fromEnv())
    )
  )
