import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import * as Http from "node:http"
import { TracingLive } from "../src/tracing/TracingLive.js"
import { e2e, raw, signUp, SqlTestPorts } from "./E2E.js"

interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
}

/** A local OTLP/HTTP collector: what arrives on /v1/traces (JSON), span by span. */
class Collector extends Context.Tag("test/Collector")<
  Collector,
  { readonly url: string; readonly spans: Array<ReceivedSpan> }
>() {}

const CollectorLive = Layer.scoped(
  Collector,
  Effect.acquireRelease(
    Effect.async<{ url: string; spans: Array<ReceivedSpan>; server: Http.Server }>((resume) => {
      const spans: Array<ReceivedSpan> = []
      const server = Http.createServer((request, response) => {
        let body = ""
        request.on("data", (chunk: Buffer) => (body += chunk.toString()))
        request.on("end", () => {
          if (request.url === "/v1/traces") {
            const message = JSON.parse(body) as {
              resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<ReceivedSpan> }> }>
            }
            for (const resource of message.resourceSpans)
              for (const scope of resource.scopeSpans) spans.push(...scope.spans)
          }
          response.writeHead(200, { "content-type": "application/json" }).end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number }
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, spans, server }))
      })
    }),
    ({ server }) => Effect.sync(() => server.close())
  )
)

const TracingToCollector = Layer.unwrapEffect(
  Effect.map(Collector, ({ url }) =>
    Layer.setConfigProvider(
      ConfigProvider.fromMap(new Map([["OTEL_EXPORTER_OTLP_ENDPOINT", url]])).pipe(
        ConfigProvider.orElse(() => ConfigProvider.fromEnv())
      )
    )
  )
)

/** The tenant listing runs its SQL, then fails as a lost connection would: a 500 with SQL under it. */
const FailingAfterSql = Layer.effect(
  TenantRepo,
  Effect.map(TenantRepo, (repo) =>
    TenantRepo.of({
      ...repo,
      listForUser: (...args) => Effect.zipRight(repo.listForUser(...args), Effect.die(new Error("connection lost")))
    })
  )
).pipe(Layer.provideMerge(SqlTestPorts))

const App = e2e(FailingAfterSql).pipe(
  Layer.provide(TracingLive),
  Layer.provide(TracingToCollector),
  Layer.provideMerge(CollectorLive)
)

layer(App, { excludeTestServices: true, timeout: "120 seconds" })("traces over OTLP/HTTP", (it) => {
  it.effect("a request's span, the SQL under it, and the trace id of its 500 problem arrive at the collector", () =>
    Effect.gen(function* () {
      const { key } = yield* signUp("traced")
      const answer = yield* raw(key, "GET", "/me/tenants")
      expect(answer.status).toBe(500)
      const traceId = answer.body?.["traceId"] as string
      expect(traceId).toMatch(/^[0-9a-f]{32}$/)
      const { spans } = yield* Collector
      const inTrace = () => spans.filter((span) => span.traceId === traceId)
      // The exporter sends in batches, every few seconds.
      for (let waited = 0; waited < 30 && !inTrace().some((s) => s.name.startsWith("sql")); waited++) {
        yield* Effect.sleep("500 millis")
      }
      const trace = inTrace()
      const request = trace.find((span) => span.name === "http.server GET")
      expect(request).toBeDefined()
      const byId = new Map(trace.map((span) => [span.spanId, span]))
      const underRequest = (span: ReceivedSpan): boolean =>
        span.parentSpanId === request!.spanId ||
        (span.parentSpanId !== undefined && byId.has(span.parentSpanId) && underRequest(byId.get(span.parentSpanId)!))
      const sql = trace.filter((span) => span.name === "sql.execute")
      expect(sql.length).toBeGreaterThan(0)
      expect(sql.every(underRequest)).toBe(true)
    })
  )
})
