import { randomBytes } from "node:crypto"
import { formatApiKey } from "@cisbook/core/apikeys/ApiKey"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { e2e, raw, signUp, sqlTestPorts } from "./E2E.js"

const FAILURES = 20
const REQUESTS = 30

const limits = {
  authenticationFailures: { points: FAILURES, window: Duration.minutes(1) },
  requests: { points: REQUESTS, window: Duration.minutes(1), shared: true }
}

/** A client that sends from `localAddress` (any 127/8 address is this machine), a connection a request. */
const clientAt = (localAddress: string) =>
  Effect.gen(function* () {
    const address = yield* HttpServer.addressWith(Effect.succeed)
    const port = address._tag === "TcpAddress" ? address.port : 0
    const context = yield* Layer.build(
      NodeHttpClient.layerWithoutAgent.pipe(
        Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false, localAddress }))
      )
    )
    const http = Context.get(context, HttpClient.HttpClient)
    /** GET `path` with the API key `key`. */
    return (key: string, path = "/me") =>
      http
        .execute(
          HttpClientRequest.get(`http://127.0.0.1:${port}${path}`).pipe(HttpClientRequest.setHeader("x-api-key", key))
        )
        .pipe(
          Effect.flatMap((response) =>
            Effect.map(response.text, (text) => ({
              status: response.status,
              retryAfter: response.headers["retry-after"],
              contentType: response.headers["content-type"] ?? "",
              body: JSON.parse(text) as Record<string, unknown>
            }))
          ),
          Effect.scoped
        )
  })

const randomKey = () => formatApiKey(randomBytes(32))

layer(e2e(sqlTestPorts(undefined, limits)), { excludeTestServices: true, timeout: "120 seconds" })(
  "rate limits",
  (it) => {
    it.scoped(
      "2,000 random API keys from one address: 401 up to the limit, then 429 for any key; other addresses unaffected",
      () =>
        Effect.gen(function* () {
          const attacker = yield* clientAt("127.0.0.3")
          const elsewhere = yield* clientAt("127.0.0.4")
          // One at a time up to one past the limit, so that the count is exact; the rest at once.
          const first = yield* Effect.forEach(Array.from({ length: FAILURES + 1 }), () => attacker(randomKey()))
          const rest = yield* Effect.forEach(Array.from({ length: 2000 - first.length }), () => attacker(randomKey()), {
            concurrency: 16
          })
          const statuses = [...first, ...rest].map((answer) => answer.status)
          expect(statuses.slice(0, FAILURES)).toEqual(Array.from({ length: FAILURES }, () => 401))
          expect(statuses.slice(FAILURES).every((status) => status === 429)).toBe(true)
          const refused = first[FAILURES]!
          expect(refused.contentType).toMatch(/^application\/problem\+json/)
          expect(refused.body).toMatchObject({ status: 429, title: "Too Many Requests" })
          expect(String(refused.body["detail"])).toMatch(/failed authentications from your address/)
          const wait = Number(refused.retryAfter)
          expect(wait).toBeGreaterThanOrEqual(1)
          expect(wait).toBeLessThanOrEqual(60)
          expect(refused.body["retryAfter"]).toBe(wait)

          // The blocked address is refused even with a good key; a client elsewhere is not.
          const { key } = yield* signUp("neighbour")
          expect((yield* attacker(key)).status).toBe(429)
          expect((yield* elsewhere(key)).status).toBe(200)
          expect((yield* elsewhere(randomKey())).status).toBe(401)
        }),
      180_000
    )

    it.scoped(
      "a user beyond their request budget: 429 with Retry-After, also through the SDK; other users unaffected",
      () =>
        Effect.gen(function* () {
          const here = yield* clientAt("127.0.0.5")
          const there = yield* clientAt("127.0.0.6")
          const busy = yield* signUp("busy")
          const other = yield* signUp("other")
          for (let i = 0; i < REQUESTS; i++) expect((yield* here(busy.key)).status).toBe(200)
          const over = yield* here(busy.key)
          expect(over.status).toBe(429)
          expect(over.contentType).toMatch(/^application\/problem\+json/)
          expect(over.body).toMatchObject({ status: 429, title: "Too Many Requests" })
          expect(String(over.body["detail"])).toMatch(/more requests than your limit/)
          expect(Number(over.retryAfter)).toBeGreaterThanOrEqual(1)
          expect(Number(over.retryAfter)).toBeLessThanOrEqual(60)
          // From another address too: the budget is the user's.
          expect((yield* there(busy.key)).status).toBe(429)
          const refused = yield* busy.api.me.getMe().pipe(Effect.flip)
          expect(refused).toMatchObject({ _tag: "TooManyRequests" })
          expect((yield* here(other.key)).status).toBe(200)
        })
    )

    it.effect("are in the OpenAPI document: 429 problem+json with Retry-After on every authenticated operation", () =>
      Effect.gen(function* () {
        const doc = (yield* raw(undefined, "GET", "/openapi.json")).body!
        const operations = Object.entries(doc["paths"] as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
          Object.entries(ops).map(([method, op]) => ({ name: `${method} ${path}`, op }))
        )
        const authenticated = operations.filter(({ op }) => op.responses["401"] !== undefined)
        expect(authenticated.length).toBeGreaterThan(40)
        for (const { op } of authenticated) {
          expect(op.responses["429"].content["application/problem+json"]).toBeDefined()
          expect(op.responses["429"].headers["Retry-After"].schema.type).toBe("integer")
        }
        expect(operations.find(({ name }) => name === "get /health")?.op.responses["429"]).toBeUndefined()
      })
    )
  }
)
