import { GoCardlessSandbox } from "@cisbook/adapters/gocardless/sandbox/GoCardlessSandbox"
import type { SandboxAnswer } from "@cisbook/adapters/gocardless/sandbox/SandboxAnswer"
import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/sandbox/SandboxPath"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { hostedPageHtml } from "./HostedPage.js"

const answer = ({ body, status }: SandboxAnswer) => HttpServerResponse.unsafeJson(body, { status })

const id = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

const jsonBody = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  request.json.pipe(Effect.orElseSucceed(() => ({})))
)

const idempotencyKey = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers["idempotency-key"])

/** The sandbox's own address as the caller reached it, so that redirect URLs lead back to it. */
const origin = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const proto = request.headers["x-forwarded-proto"] ?? "http"
  return `${proto}://${request.headers["host"] ?? "localhost"}${SANDBOX_PATH}`
})

const BankForm = Schema.Struct({
  account_holder_name: Schema.optional(Schema.String),
  sort_code: Schema.optional(Schema.String),
  account_number: Schema.optional(Schema.String)
})

const page = (
  sandbox: GoCardlessSandbox["Type"],
  result: Effect.Effect.Success<ReturnType<typeof sandbox.flowPage>>
) =>
  result._tag === "Redirect"
    ? HttpServerResponse.empty({ status: 303, headers: { location: result.location } })
    : HttpServerResponse.html(hostedPageHtml(result)).pipe(
        HttpServerResponse.setStatus(result._tag === "Gone" ? 404 : 200)
      )

/**
 * The GoCardless-compatible sandbox under /sandbox/gocardless: the API subset (any bearer token
 * is accepted, as a sandbox needs none), the scenario simulators and the hosted page. Served
 * wherever the composition holds a sandbox (every server does; an in-memory test app may not).
 */
export const GoCardlessSandboxRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const found = yield* Effect.serviceOption(GoCardlessSandbox)
    if (Option.isNone(found)) return
    const sandbox = found.value
    const at = (path: string) => `${SANDBOX_PATH}${path}` as `/${string}`
    const withId = <A>(f: (id: string) => Effect.Effect<A>) => Effect.flatMap(id, f)

    yield* router.post(
      at("/redirect_flows"),
      Effect.all([jsonBody, idempotencyKey, origin]).pipe(
        Effect.flatMap(([body, key, base]) => sandbox.createRedirectFlow(body, key, base)),
        Effect.map(answer)
      )
    )
    yield* router.get(at("/redirect_flows/:id"), withId(sandbox.getRedirectFlow).pipe(Effect.map(answer)))
    yield* router.post(
      at("/redirect_flows/:id/actions/complete"),
      Effect.all([id, jsonBody]).pipe(
        Effect.flatMap(([flowId, body]) => sandbox.completeRedirectFlow(flowId, body)),
        Effect.map(answer)
      )
    )
    yield* router.get(at("/mandates/:id"), withId(sandbox.getMandate).pipe(Effect.map(answer)))
    yield* router.post(at("/mandates/:id/actions/cancel"), withId(sandbox.cancelMandate).pipe(Effect.map(answer)))
    yield* router.get(at("/customer_bank_accounts/:id"), withId(sandbox.getBankAccount).pipe(Effect.map(answer)))
    yield* router.post(
      at("/payments"),
      Effect.all([jsonBody, idempotencyKey]).pipe(
        Effect.flatMap(([body, key]) => sandbox.createPayment(body, key)),
        Effect.map(answer)
      )
    )
    yield* router.get(at("/payments/:id"), withId(sandbox.getPayment).pipe(Effect.map(answer)))
    yield* router.post(at("/payments/:id/actions/retry"), withId(sandbox.retryPayment).pipe(Effect.map(answer)))
    yield* router.post(
      at("/scenario_simulators/:id/actions/run"),
      Effect.all([id, jsonBody]).pipe(
        Effect.flatMap(([type, body]) => sandbox.runScenario(type, body)),
        Effect.map(answer)
      )
    )
    yield* router.get(
      at("/flow/:id"),
      withId((flowId) => sandbox.flowPage(flowId)).pipe(Effect.map((result) => page(sandbox, result)))
    )
    yield* router.post(
      at("/flow/:id"),
      Effect.all([id, HttpServerRequest.schemaBodyUrlParams(BankForm).pipe(Effect.orElseSucceed(() => ({})))]).pipe(
        Effect.flatMap(([flowId, form]) => sandbox.submitFlowPage(flowId, form)),
        Effect.map((result) => page(sandbox, result))
      )
    )
  })
)
