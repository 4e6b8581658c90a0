import { randomBytes } from "node:crypto"
import { formatApiKey } from "@cisbook/core/apikeys/ApiKey"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Cause, Context, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import { goCardlessDirectDebitOver } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/SandboxPath"
import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { DirectDebitUnavailable } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { OWN_CALL_HEADER } from "@cisbook/adapters/system/OwnCalls"
import { acceptedJuneReturn } from "./AcceptedReturn.js"
import { contractorTenant } from "./ContractorTenant.js"
import { e2e, raw, signUp, sqlTestPorts } from "./E2E.js"
import { postBankDetails, withSettings } from "./SandboxHttp.js"

const FAILURES = 20
const REQUESTS = 30

const limits = {
  authenticationFailures: { points: FAILURES, window: Duration.minutes(1) },
  requests: { points: REQUESTS, window: Duration.minutes(1), shared: true }
}

/** An HTTP client that sends from `localAddress` (any 127/8 address is this machine), a connection a request. */
const httpFrom = (localAddress: string) =>
  Effect.map(
    Layer.build(
      NodeHttpClient.layerWithoutAgent.pipe(
        Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false, localAddress }))
      )
    ),
    Context.get(HttpClient.HttpClient)
  )

/** The test server's own address. */
const serverUrl = Effect.map(
  HttpServer.addressWith(Effect.succeed),
  (address) => `http://127.0.0.1:${address._tag === "TcpAddress" ? address.port : 0}`
)

/** A client of the test server that sends from `localAddress`, a connection a request. */
const senderAt = (localAddress: string) =>
  Effect.gen(function* () {
    const http = (yield* httpFrom(localAddress)).pipe(
      HttpClient.mapRequest(HttpClientRequest.prependUrl(yield* serverUrl))
    )
    /** Sends the request, answering its status, Retry-After, content type and body. */
    return (request: HttpClientRequest.HttpClientRequest) =>
      http.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.text, (text) => ({
            status: response.status,
            retryAfter: response.headers["retry-after"],
            rateLimit: {
              limit: response.headers["ratelimit-limit"],
              remaining: response.headers["ratelimit-remaining"],
              reset: response.headers["ratelimit-reset"]
            },
            contentType: response.headers["content-type"] ?? "",
            text
          }))
        ),
        Effect.scoped
      )
  })

/** GETs with an API key from `localAddress`, answering JSON bodies. */
const clientAt = (localAddress: string) =>
  Effect.map(
    senderAt(localAddress),
    (send) =>
      /** GET `path` with the API key `key`. */
      (key: string, path = "/me") =>
        Effect.map(send(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeader("x-api-key", key))), (answer) => ({
          ...answer,
          body: JSON.parse(answer.text) as Record<string, unknown>
        }))
  )

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

const SANDBOX_REQUESTS = 20

/** A small failure budget, a user budget out of the way, and a small budget for the sandboxes. */
const sandboxed = e2e(
  sqlTestPorts(undefined, {
    authenticationFailures: { points: 10, window: Duration.minutes(1) },
    requests: { points: 10_000, window: Duration.minutes(1), shared: false }
  })
).pipe(Layer.provide(withSettings({ RATE_LIMIT_SANDBOX_REQUESTS: String(SANDBOX_REQUESTS) })))

const govTalkSubmission = HttpClientRequest.post("/sandbox/govtalk/submission").pipe(
  HttpClientRequest.bodyText("<GovTalkMessage/>", "text/xml; charset=UTF-8")
)

layer(sandboxed, { excludeTestServices: true, timeout: "180 seconds" })("the sandboxes' budget", (it) => {
  it.effect(
    "a mandate setup, 50 invoice listings and the hosted page from one address, then a signed-in request: 200",
    () =>
      Effect.gen(function* () {
        // Everything from the test client's address, which is also where the server's adapters call
        // its sandboxes from: filing the return polls the tax sandbox, each listing asks GoCardless's.
        const owner = yield* contractorTenant("sandboxed")
        yield* acceptedJuneReturn(owner)
        yield* Effect.flatMap(BillingRun, (run) => run.run("2026-07-01"))
        const setup = yield* owner.api.billing.createMandateSetup({
          payload: { successRedirectUrl: "https://app.cisbook.example/billing/done" }
        })
        const page = HttpClientRequest.get(new URL(setup.redirectUrl).pathname)
        for (let i = 0; i < 3; i++) {
          expect((yield* Effect.flatMap(HttpClient.HttpClient, (http) => http.execute(page))).status).toBe(200)
        }
        expect((yield* postBankDetails(setup.redirectUrl)).status).toBe(303)
        yield* owner.api.billing.completeMandateSetup({
          payload: { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
        })
        for (let i = 0; i < 50; i++) {
          const [invoice] = yield* owner.api.billing.listBillingInvoices()
          expect(invoice).toMatchObject({ paymentStatus: "Pending", paymentReference: expect.stringMatching(/^PM/) })
        }

        expect((yield* raw(owner.key, "GET", "/me")).status).toBe(200)
        // Of the sandboxes' budget the address used only the hosted page's four requests: none of
        // the server's own calls counted.
        const mandates = yield* Effect.forEach(Array.from({ length: SANDBOX_REQUESTS - 4 + 1 }), () =>
          raw(undefined, "GET", "/sandbox/gocardless/mandates")
        )
        expect(mandates.slice(0, -1).every((answer) => answer.status === 200)).toBe(true)
        expect(mandates.at(-1)?.status).toBe(429)
        expect((yield* raw(owner.key, "GET", "/me")).status).toBe(200)
      })
  )

  it.scoped(
    "sandbox traffic has its own budget per address, for both sandboxes; it refuses no signed-in request; only a refused credential counts as a failure",
    () =>
      Effect.gen(function* () {
        const send = yield* senderAt("127.0.0.7")
        const get = yield* clientAt("127.0.0.7")
        const elsewhere = yield* senderAt("127.0.0.8")
        const { key } = yield* signUp("sandbox-user")

        // Requests without a credential are not failed authentications (the failure budget is 10).
        for (let i = 0; i < 30; i++) expect((yield* send(HttpClientRequest.get("/me"))).status).toBe(401)
        expect((yield* get(key)).status).toBe(200)

        // One budget for both sandboxes: GoCardless's and the Transaction Engine's requests add up.
        const mandates = HttpClientRequest.get("/sandbox/gocardless/mandates")
        for (let i = 0; i < SANDBOX_REQUESTS; i++) {
          const answer = yield* send(i % 2 === 0 ? mandates : govTalkSubmission)
          expect(answer.status).not.toBe(429)
          // GoCardless's answers tell what is left of the budget, as GoCardless's RateLimit-* headers do.
          if (i % 2 === 0) {
            expect(answer.rateLimit).toEqual({
              limit: String(SANDBOX_REQUESTS),
              remaining: String(SANDBOX_REQUESTS - i - 1),
              reset: expect.stringMatching(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
            })
          }
        }
        const goCardless = yield* send(mandates)
        expect(goCardless.status).toBe(429)
        expect(Number(goCardless.retryAfter)).toBeGreaterThanOrEqual(1)
        expect(goCardless.rateLimit).toMatchObject({ limit: String(SANDBOX_REQUESTS), remaining: "0" })
        expect(Date.parse(goCardless.rateLimit.reset ?? "")).toBeGreaterThan(Date.now() - 1000)
        // GoCardless's own error body, which its clients read.
        expect(JSON.parse(goCardless.text)).toMatchObject({
          error: { code: 429, type: "invalid_api_usage", errors: [{ reason: "rate_limit_exceeded" }] }
        })
        const engine = yield* send(govTalkSubmission)
        expect(engine.status).toBe(429)
        expect(engine.contentType).toMatch(/^application\/problem\+json/)
        expect(JSON.parse(engine.text)).toMatchObject({ status: 429, retryAfter: Number(engine.retryAfter) })
        // A made-up mark of the server's own calls is no way round it.
        const forged = yield* send(
          mandates.pipe(HttpClientRequest.setHeader(OWN_CALL_HEADER, `Bearer ${"x".repeat(43)}`))
        )
        expect(forged.status).toBe(429)

        // The address's signed-in requests are served, its refused credentials are 401 (not 429),
        // and another address still reaches the sandbox.
        expect((yield* get(key)).status).toBe(200)
        expect((yield* get(randomKey())).status).toBe(401)
        expect((yield* elsewhere(mandates)).status).toBe(200)
      })
  )

  it.scoped(
    "GoCardless's adapter, calling the sandbox as it would GoCardless, stops at its reserve by the RateLimit headers: nothing sent past it, no 429",
    () =>
      Effect.gen(function* () {
        const outside = yield* httpFrom("127.0.0.9")
        const provider = yield* Effect.provide(
          DirectDebit,
          goCardlessDirectDebitOver({
            baseUrl: `${yield* serverUrl}${SANDBOX_PATH}`,
            accessToken: Redacted.make("sandbox_from_outside")
          }).pipe(Layer.provide(Layer.succeed(HttpClient.HttpClient, outside)))
        )
        const calls = yield* Effect.forEach(Array.from({ length: SANDBOX_REQUESTS }), () =>
          Effect.exit(provider.getMandate("MD0000000000"))
        )
        // A user's request leaves 5 of the budget: the sandbox answers 15 (an unknown mandate is
        // its 404), then the budget's reset is a minute ahead, longer than a request waits.
        const answeredCount = SANDBOX_REQUESTS - 5
        for (const answered of calls.slice(0, answeredCount)) {
          expect(Exit.isFailure(answered) && Option.getOrUndefined(Cause.failureOption(answered.cause))).toMatchObject({
            _tag: "DirectDebitRefused",
            reason: "resource_not_found"
          })
        }
        for (const held of calls.slice(answeredCount)) {
          const defect = Exit.isFailure(held) ? Option.getOrUndefined(Cause.dieOption(held.cause)) : undefined
          expect(defect).toBeInstanceOf(DirectDebitUnavailable)
          expect(defect).toMatchObject({
            message: expect.stringMatching(
              /^GoCardless's rate limit is spent until .+ GMT: GET \/sandbox\/gocardless\/mandates\/MD0000000000 was not sent$/
            )
          })
          const { retryAfterSeconds } = defect as DirectDebitUnavailable
          expect(retryAfterSeconds).toBeGreaterThanOrEqual(1)
          expect(retryAfterSeconds).toBeLessThanOrEqual(60)
        }
        // The calls held were never sent: the address still has its 5.
        const next = yield* (yield* senderAt("127.0.0.9"))(HttpClientRequest.get(`${SANDBOX_PATH}/mandates`))
        expect(next.status).toBe(200)
        expect(next.rateLimit.remaining).toBe("4")
      })
  )
})
