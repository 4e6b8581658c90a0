import { DatabasePool } from "@cisbook/adapters/sql/DatabasePool"
import { type JobBacklog, readJobBacklogs } from "@cisbook/adapters/sql/JobBacklogSql"
import type { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Runtime } from "effect"
import * as Http from "node:http"
import * as Prometheus from "prom-client"
import { ListenConfig } from "../transport/ListenConfig.js"
import { MetricsPortConfig } from "./MetricsConfig.js"

/**
 * What is read when Prometheus scrapes, into a registry of this listener's: the process's own
 * metrics, each job's backlog (a query a job, from JOB_TABLES) and the database pool. The
 * counters and histograms the requests, workers and provider calls update live in the default
 * registry; a scrape answers both.
 */
const scrapedRegistry = (runtime: Runtime.Runtime<SqlClient.SqlClient>, pool: Option.Option<DatabasePool["Type"]>) => {
  const registry = new Prometheus.Registry()
  Prometheus.collectDefaultMetrics({ register: registry })
  // prom-client names three gauges with a counter's suffix, which promtool refuses: each is the
  // sum over the `type` label of the gauge named without it (`sum(nodejs_active_handles)`).
  for (const kind of ["handles", "requests", "resources"]) registry.removeSingleMetric(`nodejs_active_${kind}_total`)
  // One query a job for both gauges: prom-client collects the metrics of a scrape at once, so
  // both gauges wait for the same reading (kept a second, shorter than any scrape interval).
  let reading: { readonly at: number; readonly backlogs: Promise<ReadonlyArray<JobBacklog>> } | undefined
  const backlogs = () => {
    if (reading === undefined || performance.now() - reading.at > 1000) {
      reading = {
        at: performance.now(),
        backlogs: Runtime.runPromise(
          runtime,
          readJobBacklogs.pipe(
            Effect.tapError((error) => Effect.logWarning("The jobs' backlogs could not be read for /metrics", error)),
            Effect.orElseSucceed(() => [])
          )
        )
      }
    }
    return reading.backlogs
  }
  new Prometheus.Gauge({
    name: "cisbook_job_due",
    help: "Background job items due and not being worked on, by job",
    labelNames: ["job"] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const { due, job } of await backlogs()) this.set({ job }, due)
    }
  })
  new Prometheus.Gauge({
    name: "cisbook_job_oldest_due_age_seconds",
    help: "How long the oldest due item of each job has waited for a worker",
    labelNames: ["job"] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const { job, oldestDueSeconds } of await backlogs()) this.set({ job }, oldestDueSeconds)
    }
  })
  if (Option.isSome(pool)) {
    const usage = pool.value.usage
    new Prometheus.Gauge({
      name: "cisbook_db_pool_connections_in_use",
      help: "Database connections of this process in use",
      registers: [registry],
      collect() {
        this.set(usage().inUse)
      }
    })
    new Prometheus.Gauge({
      name: "cisbook_db_pool_connections_idle",
      help: "Database connections of this process open and idle",
      registers: [registry],
      collect() {
        this.set(usage().idle)
      }
    })
    new Prometheus.Gauge({
      name: "cisbook_db_pool_waiting",
      help: "Statements and transactions of this process waiting for a database connection",
      registers: [registry],
      collect() {
        this.set(usage().waiting)
      }
    })
  }
  return registry
}

const answer = (registry: Prometheus.Registry) => (request: Http.IncomingMessage, response: Http.ServerResponse) => {
  request.resume()
  if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
    response.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics is here.\n")
    return
  }
  Prometheus.Registry.merge([Prometheus.register, registry])
    .metrics()
    .then(
      (text) => response.writeHead(200, { "content-type": Prometheus.register.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`)
    )
}

/** Where the metrics listener listens (the port it was given, or the one the system chose for 0). */
export class MetricsAddress extends Context.Tag("http/MetricsAddress")<MetricsAddress, { readonly port: number }>() {}

/** GET /metrics in Prometheus's text format, on its own listener at `port` (never the API's). */
export const metricsListener = (port: number, host: string) =>
  Layer.scoped(
    MetricsAddress,
    Effect.gen(function* () {
      const registry = scrapedRegistry(
        yield* Effect.runtime<SqlClient.SqlClient>(),
        yield* Effect.serviceOption(DatabasePool)
      )
      const server = Http.createServer(answer(registry))
      yield* Effect.acquireRelease(
        Effect.async<void, Error>((resume) => {
          server.once("error", (error) => resume(Effect.fail(error)))
          server.listen(port, host, () => resume(Effect.void))
        }),
        () =>
          Effect.async<void>((resume) => {
            server.close(() => resume(Effect.void))
          })
      )
      const address = server.address()
      const bound = typeof address === "object" && address !== null ? address.port : port
      yield* Effect.logInfo(`Metrics at http://${host}:${bound}/metrics`)
      return { port: bound }
    })
  )

/** The metrics listener as METRICS_PORT (and HOST) say; none when METRICS_PORT is not set. */
export const MetricsLive = Layer.unwrapEffect(
  Effect.map(Effect.all([MetricsPortConfig, ListenConfig]), ([port, { host }]) =>
    Option.match(port, { onNone: () => Layer.empty, onSome: (p) => metricsListener(p, host) })
  )
)
