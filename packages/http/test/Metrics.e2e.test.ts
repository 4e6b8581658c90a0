import { measuredCalls } from "@cisbook/adapters/metrics/ProviderCallMetrics"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer } from "effect"
import { spawnSync } from "node:child_process"
import { MetricsAddress, metricsListener } from "../src/metrics/MetricsListener.js"
import { runLeasedWorker } from "../src/workers/LeasedWorker.js"
import { e2e, raw, ServerUnderTest, SqlTestPorts, ownerOfNewTenant } from "./E2E.js"

/** METRICS_PORT set, as it turns the request metrics on; the listener itself is on a port the system chooses. */
const MetricsOn = Layer.setConfigProvider(
  ConfigProvider.fromMap(new Map([["METRICS_PORT", "9464"]])).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )
)

// One build: the server's ports and the listener's queries stand on one test database.
const App = Layer.mergeAll(e2e(SqlTestPorts), metricsListener(0, "127.0.0.1")).pipe(
  Layer.provide(ServerUnderTest),
  Layer.provideMerge(EphemeralDatabase),
  Layer.provide(MetricsOn)
)

/** A GET on the metrics listener (the test client is bound to the API's port). */
const getFromMetricsPort = (path: string) =>
  Effect.flatMap(MetricsAddress, ({ port }) =>
    Effect.promise(async () => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`)
      return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() }
    })
  )

const scrape = Effect.gen(function* () {
  const { contentType, status, text } = yield* getFromMetricsPort("/metrics")
  expect(status).toBe(200)
  expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/)
  return text
})

/** A sample's value, by its name and labels as Prometheus writes them. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

layer(App, { excludeTestServices: true, timeout: "120 seconds" })("GET /metrics", (it) => {
  it.scoped("counts requests by route template, jobs, provider calls and the pool; promtool accepts it", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* ownerOfNewTenant("metrics")
      // A webhook and an event for it: one delivery falls due, and no dispatcher runs here.
      yield* api.webhooks.createWebhook({ path: { tenant }, payload: { url: "https://example.com/hooks" } })
      const contact = yield* api.contacts.createContact({
        path: { tenant },
        payload: { name: "Metrics Ltd", isCustomer: true }
      })
      yield* raw(key, "GET", `/tenants/${tenant}/contacts/${contact.code}`)
      yield* raw(key, "GET", `/tenants/${tenant}/contacts/${contact.code}`)
      yield* raw(key, "GET", "/no/such/path/12345")

      // A job of three items, one of which fails, through the workers' one shape.
      yield* runLeasedWorker(
        {
          claim: (() => {
            const left = [1, 2, 3]
            return () => Effect.sync(() => left.splice(0))
          })(),
          attempt: (n: number) => Effect.succeed(n),
          record: () => Effect.void
        },
        { worker: "Metrics test", items: "items", work: "metrics test job", failed: (n: number) => n === 2 },
        { pollInterval: Duration.millis(10), concurrency: 4, lease: Duration.minutes(1) }
      )
      // Provider calls, one of each outcome, through the one wrapper.
      const provider = measuredCalls("metrics_test_provider", {
        ask: (answer: boolean) => (answer ? Effect.succeed("yes") : Effect.fail("unavailable"))
      })
      yield* provider.ask(true)
      yield* Effect.either(provider.ask(false))
      yield* Effect.sleep(Duration.millis(200))

      const text = yield* scrape
      const http = (method: string, route: string, status: number) =>
        sample(
          text,
          `cisbook_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`
        )
      expect(http("GET", "/tenants/:tenant/contacts/:code", 200)).toBe(2)
      expect(http("POST", "/tenants/:tenant/contacts", 201)).toBe(1)
      expect(http("GET", "unmatched", 404)).toBe(1)
      expect(text).not.toContain(contact.code)
      expect(text).not.toContain("/no/such/path")

      expect(sample(text, 'cisbook_job_attempts_total{job="metrics_test_job"}')).toBe(3)
      expect(sample(text, 'cisbook_job_failures_total{job="metrics_test_job"}')).toBe(1)
      expect(sample(text, 'cisbook_job_due{job="webhook_deliveries"}')).toBeGreaterThanOrEqual(1)
      expect(sample(text, 'cisbook_job_oldest_due_age_seconds{job="webhook_deliveries"}')).toBeGreaterThanOrEqual(0)
      for (const job of ["mail", "verification_requests", "monthly_returns"]) {
        expect(sample(text, `cisbook_job_due{job="${job}"}`)).toBe(0)
      }

      const calls = (outcome: string) =>
        sample(
          text,
          `cisbook_provider_call_duration_seconds_count{provider="metrics_test_provider",operation="ask",outcome="${outcome}"}`
        )
      expect(calls("success")).toBe(1)
      expect(calls("failure")).toBe(1)

      expect(sample(text, "cisbook_db_pool_connections_in_use")).toBeGreaterThanOrEqual(0)
      expect(sample(text, "cisbook_db_pool_waiting")).toBeGreaterThanOrEqual(0)
      expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0)

      // Debian's prometheus package: it reports a malformed exposition and names against the
      // conventions (prom-client's own _total gauges were among them), and exits 1 then.
      const checked = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" })
      expect(checked.error).toBeUndefined()
      expect(`${checked.stdout}${checked.stderr}`).toBe("")
      expect(checked.status).toBe(0)
      expect(sample(text, "nodejs_active_handles_total")).toBeUndefined()
      expect(text).toMatch(/^nodejs_active_handles\{type="[A-Za-z]+"\} \d+$/m)
    })
  )

  it.effect("answers nothing but GET /metrics on its port, and the API's port has no /metrics", () =>
    Effect.gen(function* () {
      expect((yield* getFromMetricsPort("/health")).status).toBe(404)
      expect((yield* raw(undefined, "GET", "/metrics")).status).toBe(404)
    })
  )
})
