import { DirectDebitLive } from "@cisbook/adapters/gocardless/DirectDebitLive"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { e2e, raw, signUp, SqlTestPorts } from "./E2E.js"
import { withSettings } from "./SandboxHttp.js"

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: unknown
}

/** What the stand-in GoCardless answers to every request just now; and how many it was sent. */
const script = { answer: { status: 200, headers: {}, body: {} } as Answer, requests: 0 }

/** GoCardless's error body, as its API reference documents it. */
const errorBody = (code: number, type: string, reason: string, message: string) => ({
  error: {
    message,
    documentation_url: `https://developer.gocardless.com/api-reference#${reason}`,
    type,
    request_id: "5a1c7e2b-8d4f-4b6a-9c3e-0f1d2a3b4c5d",
    code,
    errors: [{ reason, message }]
  }
})

/** A stand-in for GoCardless's API on a local port, answering whatever `script` says. */
const standInGoCardless = Effect.acquireRelease(
  Effect.promise(async () => {
    const server = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        script.requests += 1
        res.writeHead(script.answer.status, { "content-type": "application/json", ...script.answer.headers })
        res.end(JSON.stringify(script.answer.body))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

const app = Layer.unwrapScoped(
  Effect.map(standInGoCardless, ({ url }) =>
    // The adapter as DIRECT_DEBIT_PROVIDER=gocardless makes it, over the test's ports.
    e2e(Layer.merge(SqlTestPorts, DirectDebitLive)).pipe(
      Layer.provide(
        withSettings({
          DIRECT_DEBIT_PROVIDER: "gocardless",
          GOCARDLESS_ACCESS_TOKEN: "sandbox_token",
          GOCARDLESS_API_URL: url,
          GOCARDLESS_WEBHOOK_SECRET: "endpoint-secret"
        })
      )
    )
  )
)

layer(app, { timeout: "60 seconds" })("GoCardless failing, as the client sees it", (it) => {
  it.effect(
    "GoCardless unavailable is 503 with its Retry-After; a fault of ours or GoCardless's is 502; neither a 500 nor the caller's mistake",
    () =>
      Effect.gen(function* () {
        const { key } = yield* signUp("gc-down")
        const setup = () =>
          raw(key, "POST", "/me/billing/mandate-setups", { successRedirectUrl: "https://app.example/done" })

        // Rate limited for a minute: more than a request waits, so it is answered at once.
        script.answer = {
          status: 429,
          headers: { "retry-after": "60", "ratelimit-limit": "1000", "ratelimit-remaining": "0" },
          body: errorBody(429, "invalid_api_usage", "rate_limit_exceeded", "Rate limit exceeded")
        }
        script.requests = 0
        const limited = yield* setup()
        expect(limited.status).toBe(503)
        expect(limited.contentType).toMatch(/^application\/problem\+json/)
        expect(limited.body).toMatchObject({ status: 503, title: "Service Unavailable" })
        expect(String(limited.body?.detail)).toContain("Send the request again in 60 seconds")
        expect(script.requests).toBe(1)
        // Nothing was kept of the setup GoCardless never took.
        expect((yield* raw(key, "GET", "/me/billing/mandate")).status).toBe(404)

        // GoCardless says the request is ours to fix: 502, never a 400 in GoCardless's words.
        script.answer = {
          status: 400,
          headers: {},
          body: errorBody(400, "invalid_api_usage", "invalid_document_structure", "Invalid document structure")
        }
        const fault = yield* setup()
        expect(fault.status).toBe(502)
        expect(fault.contentType).toMatch(/^application\/problem\+json/)
        expect(String(fault.body?.detail)).toContain("through no fault of yours")
        expect(String(fault.body?.detail)).not.toContain("Invalid document structure")

        // A refusal the caller can act on is still theirs: 400 with GoCardless's message.
        script.answer = {
          status: 422,
          headers: {},
          body: {
            error: {
              message: "Validation failed",
              type: "validation_failed",
              code: 422,
              request_id: "5a1c7e2b-8d4f-4b6a-9c3e-0f1d2a3b4c5e",
              documentation_url: "https://developer.gocardless.com/api-reference#validation_failed",
              errors: [{ field: "email", message: "is invalid", request_pointer: "/customers/email" }]
            }
          }
        }
        const refused = yield* setup()
        expect(refused.status).toBe(400)
        expect(String(refused.body?.detail)).toContain("email is invalid")
      })
  )
})
