import { type Context, Effect, Exit, Layer } from "effect"
import * as Prometheus from "prom-client"

/** Calls to outside systems (GoCardless, the SMTP server, the tax authority), by outcome, and how long each took. */
export const providerCallDuration = new Prometheus.Histogram({
  name: "cisbook_provider_call_duration_seconds",
  help: "Calls to outside systems (GoCardless, SMTP, the tax authority) by provider, operation and outcome, and how long they took",
  labelNames: ["provider", "operation", "outcome"] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
})

const measured = <A, E, R>(provider: string, operation: string, call: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const started = performance.now()
    return call.pipe(
      Effect.onExit((exit) =>
        Effect.sync(() =>
          providerCallDuration.observe(
            { provider, operation, outcome: Exit.isSuccess(exit) ? "success" : "failure" },
            (performance.now() - started) / 1000
          )
        )
      ),
      Effect.withSpan(`${provider}.${operation}`, { kind: "client", attributes: { "peer.service": provider } })
    )
  })

/** The service with every call that answers an Effect timed, counted by outcome and traced as `<provider>.<operation>`. */
export const measuredCalls = <S extends object>(provider: string, service: S): S =>
  Object.fromEntries(
    Object.entries(service).map(([operation, member]) => [
      operation,
      typeof member === "function"
        ? (...args: ReadonlyArray<unknown>) => {
            const answer: unknown = member(...args)
            return Effect.isEffect(answer) ? measured(provider, operation, answer) : answer
          }
        : member
    ])
  ) as S

/** The port the layer provides, with every call measured (see measuredCalls): one wrapper where the port is provided. */
export const measuredPort =
  <I, S extends object>(tag: Context.Tag<I, S>, provider: string) =>
  <E, R>(layer: Layer.Layer<I, E, R>): Layer.Layer<I, E, R> =>
    Layer.effect(
      tag,
      Effect.map(tag, (service) => measuredCalls(provider, service))
    ).pipe(Layer.provide(layer))

/** Calls to GoCardless tried again (a network error or time-out, a 5xx, a 429), by what went wrong. */
export const goCardlessRetries = new Prometheus.Counter({
  name: "cisbook_gocardless_retries_total",
  help: "GoCardless calls tried again after a network error or time-out (reason network), a 5xx or a 429 (reason the status)",
  labelNames: ["reason"] as const
})

/** GoCardless calls held for its rate limit (RateLimit-Remaining at the caller's reserve): waited for its reset, or given up unsent. */
export const goCardlessBudgetPauses = new Prometheus.Counter({
  name: "cisbook_gocardless_budget_pauses_total",
  help: "GoCardless calls held before they were sent because its rate limit was nearly spent: waited for its reset (outcome waited), or given up as unavailable unsent (outcome unavailable)",
  labelNames: ["outcome"] as const
})
