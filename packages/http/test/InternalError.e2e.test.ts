import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { BillingTermsLive } from "@cisbook/adapters/billing/BillingTermsLive"
import { BillingInvoiceRepoSql } from "@cisbook/adapters/sql/BillingInvoiceRepoSql"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, HashMap, Layer, Logger, Option } from "effect"
import { e2e, signUp } from "./E2E.js"

const logged: Array<{ readonly message: string; readonly traceId: string | undefined; readonly cause: string }> = []

const CapturingLogger = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, cause, message }) => {
    const traceId = Option.getOrUndefined(HashMap.get(annotations, "traceId"))
    logged.push({ message: String(message), traceId: traceId as string | undefined, cause: String(cause) })
  })
)

/** A store whose tenant listing fails the way a lost database connection would. */
const BrokenPorts = Layer.effect(
  TenantRepo,
  Effect.map(TenantRepo, (repo) =>
    TenantRepo.of({
      ...repo,
      listForUser: () => Effect.die(new Error("connection to 10.0.0.5:5432 lost: SELECT * FROM tenants"))
    })
  )
).pipe(
  Layer.provideMerge(MemoryPorts),
  // The billing invoice store has no memory fake: it is the one SQL port here.
  Layer.merge(
    Layer.mergeAll(BillingInvoiceRepoSql.pipe(Layer.provide(EphemeralDatabase)), BillingTermsLive, DocumentRendererFake)
  )
)

layer(e2e(BrokenPorts).pipe(Layer.provide(CapturingLogger)))("an unexpected failure", (it) => {
  it.effect("answers 500 with only a trace id, and logs the cause under the same id", () =>
    Effect.gen(function* () {
      const { key } = yield* signUp("boom")
      const response = yield* Effect.flatMap(HttpClient.HttpClient, (http) =>
        http.execute(HttpClientRequest.get("/me/tenants").pipe(HttpClientRequest.setHeader("x-api-key", key)))
      )
      const body = (yield* response.json) as Record<string, unknown>
      expect(response.status).toBe(500)
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/)
      expect(Object.keys(body).sort()).toEqual(["detail", "status", "title", "traceId", "type"])
      expect(JSON.stringify(body)).not.toMatch(/10\.0\.0\.5|SELECT|tenants|Error/)
      expect(body["traceId"]).toMatch(/^[0-9a-f]{16,}$/)
      const entry = logged.find((l) => l.traceId === body["traceId"])
      expect(entry?.cause).toContain("connection to 10.0.0.5:5432 lost")
    })
  )
})
