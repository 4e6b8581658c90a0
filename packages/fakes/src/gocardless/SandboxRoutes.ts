import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { GoCardlessSandbox } from "./GoCardlessSandbox.js"
import { hostedPageHtml } from "./HostedPage.js"
import { failure, notFound, type SandboxAnswer } from "./SandboxAnswer.js"
import type { Query } from "./SandboxPaging.js"

/** A client's budget of requests as it stands after one: its size, what is left, when it is whole again. */
export interface RequestBudget {
  readonly limit: number
  readonly remaining: number
  readonly resetsAt: Date
}

/** Whether a request may be served: `retryAfterSeconds` when it may not; the budget, when the request was counted. */
export interface SandboxAdmitted {
  readonly retryAfterSeconds?: number
  readonly budget?: RequestBudget
}

export type Admission = (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<SandboxAdmitted>

/** GoCardless's rate-limit headers (as its recorded answers carry them): RateLimit-Reset is an HTTP date. */
const rateLimitHeaders = (budget: RequestBudget | undefined): Record<string, string> =>
  budget === undefined
    ? {}
    : {
        "ratelimit-limit": String(budget.limit),
        "ratelimit-remaining": String(budget.remaining),
        "ratelimit-reset": budget.resetsAt.toUTCString()
      }

const answer = ({ body, status }: SandboxAnswer) => HttpServerResponse.unsafeJson(body, { status })

const id = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

const query = HttpServerRequest.ParsedSearchParams

class MalformedBody extends Schema.TaggedError<MalformedBody>()("MalformedBody", {}) {}

/** The JSON body; none is `{}` (an action without data), malformed JSON is GoCardless's 400. */
const jsonBody = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.flatMap(request.text, (text) =>
    text.trim() === ""
      ? Effect.succeed<unknown>({})
      : Effect.try({ try: (): unknown => JSON.parse(text), catch: () => new MalformedBody() })
  )
).pipe(Effect.catchTag("RequestError", () => Effect.fail(new MalformedBody())))

const malformed = () =>
  answer(
    failure(400, "invalid_api_usage", "Invalid document structure", [
      { reason: "invalid_document_structure", message: "The request body is not valid JSON" }
    ])
  )

const idempotencyKey = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers["idempotency-key"])

const BankForm = Schema.Struct({
  account_holder_name: Schema.optional(Schema.String),
  sort_code: Schema.optional(Schema.String),
  account_number: Schema.optional(Schema.String)
})

const page = (result: Effect.Effect.Success<ReturnType<GoCardlessSandbox["Type"]["flowPage"]>>) =>
  result._tag === "Redirect"
    ? HttpServerResponse.empty({ status: 303, headers: { location: result.location } })
    : HttpServerResponse.html(hostedPageHtml(result)).pipe(
        HttpServerResponse.setStatus(result._tag === "Gone" ? 404 : 200)
      )

/** GoCardless's 429 (its published rate_limit_exceeded body), with Retry-After and its RateLimit-* headers. */
const tooMany = (seconds: number, budget: RequestBudget | undefined) =>
  HttpServerResponse.unsafeJson(
    failure(429, "invalid_api_usage", "Rate limit exceeded", [
      { reason: "rate_limit_exceeded", message: "Rate limit exceeded" }
    ]).body,
    { status: 429, headers: { "retry-after": String(seconds), ...rateLimitHeaders(budget) } }
  )

/**
 * The GoCardless-compatible sandbox under `path`: the API subset (any bearer token is accepted,
 * as a sandbox needs none), the scenario simulators and the hosted page. Any other path or
 * method under it answers GoCardless's own 404 body, so that GoCardless's client can read it.
 * Every request is first admitted (the per-address rate limit), and told what is left of its
 * budget in GoCardless's RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers.
 */
export const sandboxRoutes = (path: string, admit: Admission) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function* () {
      const sandbox = yield* GoCardlessSandbox
      const at = (suffix: string) => `${path}${suffix}` as `/${string}`
      /** The sandbox's own address as the caller reached it, so that redirect URLs lead back to it. */
      const origin = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
        const proto = request.headers["x-forwarded-proto"] ?? "http"
        return `${proto}://${request.headers["host"] ?? "localhost"}${path}`
      })
      const admitted = <E, R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.flatMap(admit(request), ({ budget, retryAfterSeconds }) =>
            retryAfterSeconds === undefined
              ? Effect.map(handler, HttpServerResponse.setHeaders(rateLimitHeaders(budget)))
              : Effect.succeed(tooMany(retryAfterSeconds, budget))
          )
        )
      const api = <R>(handler: Effect.Effect<SandboxAnswer, MalformedBody, R>) =>
        admitted(
          handler.pipe(
            Effect.map(answer),
            Effect.catchTag("MalformedBody", () => Effect.succeed(malformed()))
          )
        )
      const withId = (f: (id: string) => Effect.Effect<SandboxAnswer>) => api(Effect.flatMap(id, f))
      const withQuery = (f: (query: Query) => Effect.Effect<SandboxAnswer>) => api(Effect.flatMap(query, f))

      yield* router.post(
        at("/billing_requests"),
        api(
          Effect.all([jsonBody, idempotencyKey]).pipe(
            Effect.flatMap(([body, key]) => sandbox.createBillingRequest(body, key))
          )
        )
      )
      yield* router.get(at("/billing_requests/:id"), withId(sandbox.getBillingRequest))
      yield* router.post(at("/billing_requests/:id/actions/fulfil"), withId(sandbox.fulfilBillingRequest))
      yield* router.post(at("/billing_requests/:id/actions/cancel"), withId(sandbox.cancelBillingRequest))
      yield* router.post(
        at("/billing_request_flows"),
        api(
          Effect.all([jsonBody, idempotencyKey, origin]).pipe(
            Effect.flatMap(([body, key, base]) => sandbox.createBillingRequestFlow(body, key, base))
          )
        )
      )
      yield* router.get(at("/mandates"), withQuery(sandbox.listMandates))
      yield* router.get(at("/mandates/:id"), withId(sandbox.getMandate))
      yield* router.post(at("/mandates/:id/actions/cancel"), withId(sandbox.cancelMandate))
      yield* router.get(at("/customers/:id"), withId(sandbox.getCustomer))
      yield* router.get(at("/customer_bank_accounts/:id"), withId(sandbox.getBankAccount))
      yield* router.post(
        at("/payments"),
        api(
          Effect.all([jsonBody, idempotencyKey]).pipe(Effect.flatMap(([body, key]) => sandbox.createPayment(body, key)))
        )
      )
      yield* router.get(at("/payments"), withQuery(sandbox.listPayments))
      yield* router.get(at("/payments/:id"), withId(sandbox.getPayment))
      yield* router.post(at("/payments/:id/actions/cancel"), withId(sandbox.cancelPayment))
      yield* router.post(at("/payments/:id/actions/retry"), withId(sandbox.retryPayment))
      yield* router.get(at("/events"), withQuery(sandbox.listEvents))
      yield* router.get(at("/events/:id"), withId(sandbox.getEvent))
      yield* router.post(
        at("/scenario_simulators/:id/actions/run"),
        api(Effect.all([id, jsonBody]).pipe(Effect.flatMap(([type, body]) => sandbox.runScenario(type, body))))
      )
      yield* router.get(
        at("/flow/:id"),
        admitted(Effect.flatMap(id, (flowId) => sandbox.flowPage(flowId)).pipe(Effect.map(page)))
      )
      yield* router.post(
        at("/flow/:id"),
        admitted(
          Effect.all([id, HttpServerRequest.schemaBodyUrlParams(BankForm).pipe(Effect.orElseSucceed(() => ({})))]).pipe(
            Effect.flatMap(([flowId, form]) => sandbox.submitFlowPage(flowId, form)),
            Effect.map(page)
          )
        )
      )
      // Anything else under the sandbox: GoCardless's 404, never the service's problem+json.
      yield* router.all(at("/*"), api(Effect.succeed(notFound())))
      yield* router.all(path as `/${string}`, api(Effect.succeed(notFound())))
    })
  )
