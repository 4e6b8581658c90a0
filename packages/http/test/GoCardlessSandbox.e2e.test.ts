import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { e2e, raw, rawText, sqlTestPorts, SqlTestPorts } from "./E2E.js"
import { SANDBOX, sandbox, sandboxMandate, withSettings } from "./SandboxHttp.js"

type Json = Record<string, any>

/** GoCardless's 404 body, as its client reads it. */
const expectGoCardlessNotFound = (answer: { status: number; contentType: string; body?: Json | undefined }) => {
  expect(answer.status).toBe(404)
  expect(answer.contentType).toMatch(/^application\/json/)
  expect(answer.body?.error).toMatchObject({
    type: "invalid_api_usage",
    code: 404,
    message: expect.any(String),
    documentation_url: expect.stringMatching(/^https:\/\/developer\.gocardless\.com\//),
    request_id: expect.stringMatching(/^RQ/),
    errors: [{ reason: "resource_not_found", message: expect.any(String) }]
  })
}

const ids = (list: ReadonlyArray<Json>) => list.map((item) => String(item["id"]))

/** A mandate with `count` payments on it, made one after another. */
const mandateWithPayments = (count: number) =>
  Effect.gen(function* () {
    const links = yield* sandboxMandate
    const payments: Array<string> = []
    for (let i = 0; i < count; i++) {
      const created = yield* sandbox("POST", "/payments", {
        payments: { amount: 100 + i, currency: "GBP", links: { mandate: links.mandate } }
      })
      expect(created.status).toBe(201)
      payments.push(String(created.body?.payments.id))
    }
    return { ...links, payments }
  })

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("the GoCardless sandbox (DIRECT_DEBIT_PROVIDER=sandbox)", (it) => {
  describe("GET /payments and GET /mandates", () => {
    it.effect("page newest first by after, before and limit, with GoCardless's cursors", () =>
      Effect.gen(function* () {
        const { mandate, payments } = yield* mandateWithPayments(7)
        const all = yield* sandbox("GET", `/payments?mandate=${mandate}&limit=500`)
        expect(all.status).toBe(200)
        expect(all.body?.meta).toEqual({ cursors: { before: null, after: null }, limit: 500 })
        const everything = ids(all.body?.payments)
        expect([...everything].sort()).toEqual([...payments].sort())
        expect(everything[0]).toBe(payments[6])
        expect(everything[6]).toBe(payments[0])

        const first = yield* sandbox("GET", `/payments?mandate=${mandate}&limit=3`)
        expect(ids(first.body?.payments)).toEqual(everything.slice(0, 3))
        expect(first.body?.meta).toEqual({ cursors: { before: null, after: everything[2] }, limit: 3 })
        const second = yield* sandbox("GET", `/payments?mandate=${mandate}&limit=3&after=${everything[2]}`)
        expect(ids(second.body?.payments)).toEqual(everything.slice(3, 6))
        expect(second.body?.meta.cursors).toEqual({ before: everything[3], after: everything[5] })
        const third = yield* sandbox("GET", `/payments?mandate=${mandate}&limit=3&after=${everything[5]}`)
        expect(ids(third.body?.payments)).toEqual(everything.slice(6))
        expect(third.body?.meta.cursors).toEqual({ before: everything[6], after: null })
        const back = yield* sandbox("GET", `/payments?mandate=${mandate}&limit=3&before=${everything[6]}`)
        expect(ids(back.body?.payments)).toEqual(everything.slice(3, 6))
        expect(back.body?.meta.cursors).toEqual({ before: everything[3], after: everything[5] })
        const start = yield* sandbox("GET", `/payments?mandate=${mandate}&limit=3&before=${everything[3]}`)
        expect(ids(start.body?.payments)).toEqual(everything.slice(0, 3))
        expect(start.body?.meta.cursors).toEqual({ before: null, after: everything[2] })
        expect((yield* sandbox("GET", `/payments?mandate=${mandate}`)).body?.meta.limit).toBe(50)
      })
    )

    it.effect("filter by customer, mandate and status (comma separated), and show a payment as GET does", () =>
      Effect.gen(function* () {
        const { customer, mandate, payments } = yield* mandateWithPayments(3)
        const other = yield* mandateWithPayments(1)
        expect((yield* sandbox("POST", `/payments/${payments[0]}/actions/cancel`)).status).toBe(200)

        const byStatus = yield* sandbox("GET", `/payments?mandate=${mandate}&status=cancelled`)
        expect(ids(byStatus.body?.payments)).toEqual([payments[0]])
        const both = yield* sandbox("GET", `/payments?mandate=${mandate}&status=cancelled,pending_submission`)
        expect(both.body?.payments).toHaveLength(3)
        const byCustomer = yield* sandbox("GET", `/payments?customer=${customer}`)
        expect([...ids(byCustomer.body?.payments)].sort()).toEqual([...payments].sort())
        const shown = yield* sandbox("GET", `/payments/${payments[1]}`)
        expect(byCustomer.body?.payments).toContainEqual(shown.body?.payments)
        expect(ids((yield* sandbox("GET", `/payments?customer=${other.customer}`)).body?.payments)).toEqual(
          other.payments
        )
        expect((yield* sandbox("GET", "/payments?customer=CU0000NOBODY")).body?.payments).toEqual([])

        const mandates = yield* sandbox("GET", `/mandates?customer=${customer}`)
        expect(ids(mandates.body?.mandates)).toEqual([mandate])
        expect(mandates.body?.mandates[0]).toEqual((yield* sandbox("GET", `/mandates/${mandate}`)).body?.mandates)
        expect((yield* sandbox("GET", `/mandates?customer=${customer}&status=active`)).body?.mandates).toEqual([])
        expect(ids((yield* sandbox("GET", `/mandates?mandate=${other.mandate}`)).body?.mandates)).toEqual([
          other.mandate
        ])
      })
    )

    it.effect("refuse a limit over 500 or under 1, and after with before, with GoCardless's 422", () =>
      Effect.gen(function* () {
        for (const query of ["limit=501", "limit=0", "limit=ten", "after=PM1&before=PM2"]) {
          const refused = yield* sandbox("GET", `/payments?${query}`)
          expect(refused.status).toBe(422)
          expect(refused.body?.error).toMatchObject({ type: "validation_failed", code: 422 })
        }
        expect((yield* sandbox("GET", "/mandates?limit=500")).status).toBe(200)
      })
    )
  })

  describe("GET /customers/{id}", () => {
    it.effect("shows the customer the completed flow made", () =>
      Effect.gen(function* () {
        const { customer } = yield* sandboxMandate
        const shown = yield* sandbox("GET", `/customers/${customer}`)
        expect(shown.status).toBe(200)
        expect(shown.body?.customers).toMatchObject({ id: customer, given_name: "Ada", family_name: "Lovelace" })
        expectGoCardlessNotFound(yield* sandbox("GET", "/customers/CU0000NOBODY"))
      })
    )
  })

  describe("POST /payments/{id}/actions/cancel", () => {
    it.effect("cancels a payment not yet submitted; any other is 422 invalid_state", () =>
      Effect.gen(function* () {
        const { payments } = yield* mandateWithPayments(2)
        const cancelled = yield* sandbox("POST", `/payments/${payments[0]}/actions/cancel`, { data: {} })
        expect(cancelled.status).toBe(200)
        expect(cancelled.body?.payments).toMatchObject({ id: payments[0], status: "cancelled" })
        expect((yield* sandbox("GET", `/payments/${payments[0]}`)).body?.payments.status).toBe("cancelled")
        const again = yield* sandbox("POST", `/payments/${payments[0]}/actions/cancel`)
        expect(again.status).toBe(422)
        expect(again.body?.error).toMatchObject({ type: "invalid_state", errors: [{ reason: "cancellation_failed" }] })

        yield* sandbox("POST", "/scenario_simulators/payment_confirmed/actions/run", {
          data: { links: { resource: payments[1] } }
        })
        const confirmed = yield* sandbox("POST", `/payments/${payments[1]}/actions/cancel`)
        expect(confirmed.status).toBe(422)
        expect(confirmed.body?.error.type).toBe("invalid_state")
        expect((yield* sandbox("GET", `/payments/${payments[1]}`)).body?.payments.status).toBe("confirmed")
        expectGoCardlessNotFound(yield* sandbox("POST", "/payments/PM0000NOPE00/actions/cancel"))
      })
    )
  })

  describe("GET /events and GET /events/{id}", () => {
    it.effect("records every change in GoCardless's shape, filtered and paged like the other lists", () =>
      Effect.gen(function* () {
        const { mandate, payments } = yield* mandateWithPayments(1)
        const payment = payments[0]!
        yield* sandbox("POST", "/scenario_simulators/payment_paid_out/actions/run", {
          data: { links: { resource: payment } }
        })
        yield* sandbox("POST", "/scenario_simulators/mandate_activated/actions/run", {
          data: { links: { resource: mandate } }
        })

        const ofPayment = yield* sandbox("GET", `/events?payment=${payment}`)
        expect(ofPayment.status).toBe(200)
        expect(ofPayment.body?.events.map((e: Json) => e["action"])).toEqual([
          "paid_out",
          "confirmed",
          "submitted",
          "created"
        ])
        const created = ofPayment.body?.events[3]
        expect(created).toEqual({
          id: expect.stringMatching(/^EV[0-9A-Z]{10}$/),
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          resource_type: "payments",
          action: "created",
          links: { payment },
          details: { origin: "api", cause: "payment_created", description: expect.any(String) },
          metadata: {},
          resource_metadata: {}
        })
        const ofMandate = yield* sandbox("GET", `/events?mandate=${mandate}`)
        expect(ofMandate.body?.events.map((e: Json) => e["action"])).toEqual(["active", "submitted", "created"])

        const paidOut = yield* sandbox("GET", `/events?payment=${payment}&resource_type=payments&action=paid_out`)
        expect(ids(paidOut.body?.events)).toEqual([ofPayment.body?.events[0].id])
        expect((yield* sandbox("GET", `/events?payment=${payment}&resource_type=mandates`)).body?.events).toEqual([])
        const paged = yield* sandbox("GET", `/events?payment=${payment}&limit=2&after=${ofPayment.body?.events[1].id}`)
        expect(ids(paged.body?.events)).toEqual(ids(ofPayment.body?.events.slice(2)))
        expect(paged.body?.meta).toEqual({
          cursors: { before: ofPayment.body?.events[2].id, after: null },
          limit: 2
        })

        const one = yield* sandbox("GET", `/events/${created.id}`)
        expect(one.body).toEqual({ events: created })
        expectGoCardlessNotFound(yield* sandbox("GET", "/events/EV0000NOPE00"))
      })
    )
  })

  describe("any other path or method", () => {
    it.effect("answers GoCardless's own 404 body, never problem+json", () =>
      Effect.gen(function* () {
        expectGoCardlessNotFound(yield* sandbox("GET", "/payouts"))
        expectGoCardlessNotFound(yield* sandbox("GET", "/billing_requests/BRQ000/actions/fulfil"))
        expectGoCardlessNotFound(yield* sandbox("DELETE", "/mandates/MD0000NOPE00"))
        expectGoCardlessNotFound(yield* sandbox("PUT", "/payments/PM0000NOPE00", { payments: {} }))
        expectGoCardlessNotFound(yield* sandbox("GET", ""))
        expectGoCardlessNotFound(yield* sandbox("GET", "/mandates/MD0000NOPE00"))
        expectGoCardlessNotFound(yield* sandbox("POST", "/scenario_simulators/no_such_scenario/actions/run", {}))
      })
    )

    it.effect("a body that is not JSON is GoCardless's 400 invalid_api_usage", () =>
      Effect.gen(function* () {
        const malformed = yield* rawText("", "POST", `${SANDBOX}/payments`, '{"payments": {')
        expect(malformed.status).toBe(400)
        expect(malformed.contentType).toMatch(/^application\/json/)
        expect(malformed.body?.error).toMatchObject({
          type: "invalid_api_usage",
          code: 400,
          errors: [{ reason: "invalid_document_structure" }]
        })
      })
    )
  })
})

layer(
  e2e(SqlTestPorts).pipe(
    Layer.provide(withSettings({ DIRECT_DEBIT_PROVIDER: "gocardless", GOCARDLESS_ACCESS_TOKEN: "live_token" }))
  ),
  { timeout: "60 seconds" }
)("with DIRECT_DEBIT_PROVIDER=gocardless", (it) => {
  it.effect("no /sandbox/gocardless route exists: the service's own 404", () =>
    Effect.gen(function* () {
      for (const path of ["/mandates", "/mandates/MD0000NOPE00", "/flow/RE0000NOPE00", "/events"]) {
        const answer = yield* raw(undefined, "GET", `${SANDBOX}${path}`)
        expect(answer.status).toBe(404)
        expect(answer.contentType).not.toMatch(/^application\/json/)
        expect(answer.body?.error).toBeUndefined()
      }
      const post = yield* Effect.flatMap(HttpClient.HttpClient, (http) =>
        http.execute(
          HttpClientRequest.post(`${SANDBOX}/scenario_simulators/mandate_activated/actions/run`).pipe(
            HttpClientRequest.bodyUnsafeJson({ data: { links: { resource: "MD1" } } })
          )
        )
      )
      expect(post.status).toBe(404)
    })
  )
})

layer(
  e2e(
    sqlTestPorts(undefined, {
      authenticationFailures: { points: 5, window: Duration.minutes(1) },
      requests: { points: 0, window: Duration.minutes(1), shared: false }
    })
  ).pipe(Layer.provide(withSettings({ RATE_LIMIT_SANDBOX_REQUESTS: "5" }))),
  { timeout: "60 seconds" }
)("the sandbox and the per-address rate limit", (it) => {
  it.effect(
    "each request counts against the address's sandbox budget; past it GoCardless's 429, and the API is not touched",
    () =>
      Effect.gen(function* () {
        for (let i = 0; i < 5; i++) expect((yield* sandbox("GET", "/mandates")).status).toBe(200)
        const refused = yield* sandbox("GET", "/mandates")
        expect(refused.status).toBe(429)
        expect(refused.body?.error).toMatchObject({ code: 429, errors: [{ reason: "rate_limit_exceeded" }] })
        expect((yield* sandbox("GET", "/flow/RE0000NOPE00")).status).toBe(429)
        // The sandbox's budget is not the failure budget: a refused key is 401, not 429.
        expect((yield* raw("not-a-key", "GET", "/me")).status).toBe(401)
      })
  )
})
