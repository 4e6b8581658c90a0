import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Option, Tracer } from "effect"
import * as Prometheus from "prom-client"

export const httpRequestDuration = new Prometheus.Histogram({
  name: "cisbook_http_request_duration_seconds",
  help: "HTTP requests by method, route template and status, and how long they took to answer",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
})

/** The route label of a request no route took (a 404), so that scanners cannot grow the label set. */
export const UNMATCHED_ROUTE = "unmatched"

/** What the router records on a request's span: the template of the route it took ("/contacts/:code"). */
const ROUTE_ATTRIBUTE = "http.route"

/**
 * A span that only remembers the route the router gives it: the router writes the route
 * template on the request's span, and without a tracer there is none. It is no span of any
 * tracer (its trace id is no trace id), and nothing is exported.
 */
const routeRecorder = (): Tracer.Span & { route: string | undefined } => {
  const recorder = {
    _tag: "Span" as const,
    name: "http.server",
    spanId: "route",
    traceId: "route",
    parent: Option.none(),
    context: Context.empty(),
    status: { _tag: "Started" as const, startTime: 0n },
    attributes: new Map<string, unknown>(),
    links: [],
    sampled: false,
    kind: "server" as const,
    route: undefined as string | undefined,
    end: () => {},
    attribute: (key: string, value: unknown) => {
      if (key === ROUTE_ATTRIBUTE) recorder.route = String(value)
    },
    event: () => {},
    addLinks: () => {}
  }
  return recorder
}

const observe = (method: string, route: string | undefined, status: number, started: number) =>
  httpRequestDuration.observe(
    { method, route: route ?? UNMATCHED_ROUTE, status: String(status) },
    (performance.now() - started) / 1000
  )

/**
 * Counts and times every request by its route template (never its raw path), method and
 * status. With a tracer the template is read from the request's span; without one, from a
 * recorder standing in for it.
 */
export const requestMetrics = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.withFiberRuntime((fiber) => {
    const started = performance.now()
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const span = Context.getOption(fiber.currentContext, Tracer.ParentSpan)
    const traced = Option.isSome(span) && span.value._tag === "Span" ? span.value : undefined
    const recorder = traced === undefined ? routeRecorder() : undefined
    const route = () => (recorder ? recorder.route : (traced?.attributes.get(ROUTE_ATTRIBUTE) as string | undefined))
    const served = recorder ? Effect.provideService(app, Tracer.ParentSpan, recorder) : app
    return Effect.onExit(served, (exit) =>
      Effect.sync(() => observe(request.method, route(), HttpServerError.exitResponse(exit).status, started))
    )
  })
