import { BillingTermsLive } from "@cisbook/adapters/billing/BillingTermsLive"
import { BillingInvoiceRepoSql } from "@cisbook/adapters/sql/BillingInvoiceRepoSql"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { StoreBusy } from "@cisbook/core/system/StoreBusy"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { SqlError } from "@effect/sql/SqlError"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { e2e, signUp } from "./E2E.js"

const logged: Array<{ readonly message: string; readonly level: string; readonly cause: string }> = []

const CapturingLogger = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ cause, logLevel, message }) => {
    logged.push({ message: String(message), level: logLevel.label, cause: String(cause) })
  })
)

/** What the store's tenant listing dies with, by the code of the tenant asked about. */
const failures: Record<string, unknown> = {
  // A statement's SQL failure that passes, as @effect/sql-pg reports it.
  deadlock: new SqlError({
    cause: Object.assign(new Error("deadlock detected"), { code: "40P01" }),
    message: "Failed to execute statement"
  }),
  // A transaction's, as TransactorSql reports it.
  busy: new StoreBusy({ reason: "a lock time-out", cause: new Error("canceling statement due to lock timeout") }),
  // One that does not pass.
  broken: new SqlError({
    cause: Object.assign(new Error('relation "tenants" does not exist'), { code: "42P01" }),
    message: "Failed to execute statement"
  })
}

let failing: keyof typeof failures = "deadlock"

const BusyPorts = Layer.effect(
  TenantRepo,
  Effect.map(TenantRepo, (repo) => TenantRepo.of({ ...repo, listForUser: () => Effect.die(failures[failing]) }))
).pipe(
  Layer.provideMerge(MemoryPorts),
  Layer.merge(
    Layer.mergeAll(BillingInvoiceRepoSql.pipe(Layer.provide(EphemeralDatabase)), BillingTermsLive, DocumentRendererFake)
  )
)

const listTenants = (key: string) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(HttpClientRequest.get("/me/tenants").pipe(HttpClientRequest.setHeader("x-api-key", key)))
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.json, (body) => ({ response, body: body as Record<string, unknown> }))
    )
  )

layer(e2e(BusyPorts).pipe(Layer.provide(CapturingLogger)))("a database too busy just now", (it) => {
  it.effect("answers 503 with Retry-After, whether a statement or a transaction found it busy, and logs why", () =>
    Effect.gen(function* () {
      const { key } = yield* signUp("busy")
      for (const kind of ["deadlock", "busy"] as const) {
        failing = kind
        logged.length = 0
        const { body, response } = yield* listTenants(key)
        expect(response.status, kind).toBe(503)
        expect(response.headers["retry-after"], kind).toBe("2")
        expect(response.headers["content-type"], kind).toMatch(/^application\/problem\+json/)
        expect(body, kind).toEqual({
          type: expect.any(String),
          title: "Service Unavailable",
          status: 503,
          detail: "The database could not serve the request just now. Send it again in 2 seconds.",
          retryAfter: 2
        })
        const entry = logged.find((l) => l.message.includes("could not serve a request"))
        expect(entry?.level, kind).toBe("WARN")
        expect(entry?.message, kind).toContain(kind === "deadlock" ? "a deadlock" : "a lock time-out")
      }
    })
  )

  it.effect("still answers 500 to a SQL failure that does not pass", () =>
    Effect.gen(function* () {
      const { key } = yield* signUp("broken")
      failing = "broken"
      const { response } = yield* listTenants(key)
      expect(response.status).toBe(500)
      expect(response.headers["retry-after"]).toBeUndefined()
    })
  )
})
