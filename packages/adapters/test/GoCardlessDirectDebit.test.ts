import { goCardlessDirectDebit } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { DirectDebit, SETUP_CANCELLED, SETUP_NOT_FINISHED } from "@cisbook/core/billing/mandates/DirectDebit"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: unknown
}

type Reply = { readonly status: number; readonly body: unknown }

/** A stand-in for GoCardless's API: records each request and answers from a script keyed by "METHOD path". */
const fakeGoCardless = (script: Readonly<Record<string, Reply>>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const seen: Array<Seen> = []
      const server = createServer((req, res) => {
        let text = ""
        req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
        req.on("end", () => {
          const path = req.url ?? ""
          seen.push({
            method: req.method ?? "",
            path,
            headers: req.headers,
            body: text === "" ? undefined : JSON.parse(text)
          })
          const reply = script[`${req.method} ${path}`] ?? {
            status: 404,
            body: {
              error: {
                message: "Not found",
                type: "invalid_api_usage",
                errors: [{ reason: "resource_not_found", message: "Resource not found" }]
              }
            }
          }
          res.writeHead(reply.status, { "content-type": "application/json" })
          res.end(JSON.stringify(reply.body))
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      return { seen, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

const billingRequest = {
  id: "BRQ0000000001",
  status: "pending",
  mandate_request: { scheme: "bacs", currency: "GBP" },
  links: { creditor: "CR1", mandate_request: "MRQ1" }
}
const fulfilledRequest = {
  ...billingRequest,
  status: "fulfilled",
  links: {
    ...billingRequest.links,
    mandate_request_mandate: "MD0000000001",
    customer: "CU1",
    customer_bank_account: "BA1"
  }
}
const flow = {
  id: "BRF0000000001",
  authorisation_url: "https://pay.gocardless.com/billing/static/flow?id=BRF0000000001",
  links: { billing_request: "BRQ0000000001" }
}
const payment = {
  id: "PM0000000001",
  status: "pending_submission",
  amount: 1200,
  charge_date: "2026-11-27",
  links: { mandate: "MD0000000001" }
}

const customer = {
  givenName: "Ada",
  familyName: "Lovelace",
  companyName: "Lovelace Builders Ltd",
  email: "ada@example.com",
  addressLine1: "1 Analytical Row",
  addressLine2: null,
  addressLine3: null,
  postalCode: "NW1 6XE",
  countryCode: "GB"
}

const withProvider = <A, E>(
  script: Readonly<Record<string, Reply>>,
  use: (seen: Array<Seen>) => Effect.Effect<A, E, DirectDebit>
) =>
  Effect.scoped(
    Effect.flatMap(fakeGoCardless(script), ({ baseUrl, seen }) =>
      use(seen).pipe(
        Effect.provide(
          goCardlessDirectDebit({ baseUrl: `${baseUrl}/`, accessToken: Redacted.make("sandbox_token_123") })
        )
      )
    )
  )

describe("the GoCardless adapter speaks GoCardless's wire format", () => {
  it.live(
    "sends the token, the API version and JSON on every request, an Idempotency-Key on every POST, and resource envelopes",
    () =>
      withProvider(
        {
          "POST /billing_requests": { status: 201, body: { billing_requests: billingRequest } },
          "POST /billing_request_flows": { status: 201, body: { billing_request_flows: flow } },
          "GET /billing_requests/BRQ0000000001": { status: 200, body: { billing_requests: fulfilledRequest } },
          "POST /payments": { status: 201, body: { payments: payment } },
          "POST /mandates/MD0000000001/actions/cancel": {
            status: 200,
            body: {
              mandates: {
                id: "MD0000000001",
                status: "cancelled",
                next_possible_charge_date: null,
                links: { customer_bank_account: "BA1" }
              }
            }
          },
          "POST /payments/PM0000000001/actions/retry": { status: 200, body: { payments: payment } },
          "GET /payments/PM0000000001": { status: 200, body: { payments: { ...payment, amount: "1200" } } },
          "GET /customer_bank_accounts/BA1": {
            status: 200,
            body: {
              customer_bank_accounts: {
                id: "BA1",
                account_holder_name: "ADA LOVELACE",
                account_number_ending: "11",
                bank_name: "BARCLAYS BANK PLC"
              }
            }
          }
        },
        (seen) =>
          Effect.gen(function* () {
            const provider = yield* DirectDebit
            const created = yield* provider.startMandateSetup(
              {
                userId: "user-1",
                successRedirectUrl: "https://app.example/done?from=setup",
                prefilledCustomer: customer
              },
              "key-flow-1"
            )
            expect(created).toEqual({ id: "BRQ0000000001", redirectUrl: flow.authorisation_url })
            expect(yield* provider.completeMandateSetup("BRQ0000000001")).toBe("MD0000000001")
            const made = yield* provider.createPayment(
              {
                amount: 1200,
                currency: "GBP",
                mandateId: "MD0000000001",
                description: "CB-000001",
                chargeDate: null,
                invoice: { id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", number: "CB-000001" }
              },
              "invoice-1"
            )
            expect(made).toEqual({
              id: "PM0000000001",
              status: "pending_submission",
              amount: 1200,
              chargeDate: "2026-11-27",
              mandateId: "MD0000000001"
            })
            expect((yield* provider.cancelMandate("MD0000000001")).status).toBe("cancelled")
            yield* provider.retryPayment("PM0000000001")
            expect((yield* provider.getPayment("PM0000000001")).amount).toBe(1200)
            expect(yield* provider.getBankAccount("BA1")).toEqual({
              accountHolderName: "ADA LOVELACE",
              accountNumberEnding: "11",
              bankName: "BARCLAYS BANK PLC"
            })

            for (const request of seen) {
              expect(request.headers["authorization"]).toBe("Bearer sandbox_token_123")
              expect(request.headers["gocardless-version"]).toBe("2015-07-06")
              expect(request.headers["accept"]).toBe("application/json")
              if (request.method === "POST") {
                expect(request.headers["idempotency-key"]).toMatch(/\S/)
                expect(request.headers["content-type"]).toMatch(/^application\/json/)
              }
            }
            const [createRequest, createFlow, complete, createPayment, cancel, retry] = seen
            expect(createRequest?.headers["idempotency-key"]).toBe("key-flow-1:billing_request")
            expect(createRequest?.body).toEqual({
              billing_requests: {
                mandate_request: { scheme: "bacs", currency: "GBP" },
                metadata: { user_id: "user-1" }
              }
            })
            expect(createFlow?.headers["idempotency-key"]).not.toMatch(/^key-flow-1/)
            expect(createFlow?.body).toEqual({
              billing_request_flows: {
                redirect_uri: "https://app.example/done?from=setup&redirect_flow_id=BRQ0000000001",
                exit_uri: "https://app.example/done?from=setup",
                links: { billing_request: "BRQ0000000001" },
                prefilled_customer: {
                  given_name: "Ada",
                  family_name: "Lovelace",
                  company_name: "Lovelace Builders Ltd",
                  email: "ada@example.com",
                  address_line1: "1 Analytical Row",
                  address_line2: null,
                  address_line3: null,
                  postal_code: "NW1 6XE",
                  country_code: "GB"
                }
              }
            })
            expect([complete?.method, complete?.path]).toEqual(["GET", "/billing_requests/BRQ0000000001"])
            expect(createPayment?.headers["idempotency-key"]).toBe("invoice-1")
            expect(createPayment?.body).toEqual({
              payments: {
                amount: 1200,
                currency: "GBP",
                description: "CB-000001",
                metadata: { invoice_id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", invoice_number: "CB-000001" },
                links: { mandate: "MD0000000001" }
              }
            })
            expect(cancel?.body).toEqual({ data: {} })
            expect(retry?.body).toEqual({ data: {} })
            // Actions have no key of the caller's: a fresh one each.
            expect(cancel?.headers["idempotency-key"]).not.toBe(retry?.headers["idempotency-key"])
          })
      )
  )

  it.live("maps an error body to DirectDebitRefused with the provider's own message and reason", () =>
    withProvider(
      {
        "POST /billing_requests": { status: 201, body: { billing_requests: billingRequest } },
        "POST /billing_request_flows": {
          status: 422,
          body: {
            error: {
              message: "Validation failed",
              documentation_url: "https://developer.gocardless.com/api-reference#validation_failed",
              type: "validation_failed",
              request_id: "RQ1",
              code: 422,
              errors: [
                {
                  reason: "validation_failed",
                  field: "redirect_uri",
                  message: "must be https",
                  request_pointer: "/billing_request_flows/redirect_uri"
                }
              ]
            }
          }
        },
        "GET /billing_requests/BRQ0000000001": { status: 200, body: { billing_requests: billingRequest } },
        "GET /billing_requests/BRQ0000000002": {
          status: 200,
          body: { billing_requests: { ...billingRequest, id: "BRQ0000000002", status: "cancelled" } }
        }
      },
      () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const refused = yield* Effect.flip(
            provider.startMandateSetup(
              { userId: "u", successRedirectUrl: "http://x", prefilledCustomer: customer },
              "k"
            )
          )
          expect(refused).toMatchObject({
            _tag: "DirectDebitRefused",
            reason: "validation_failed",
            message: "redirect_uri must be https"
          })
          expect(yield* Effect.flip(provider.completeMandateSetup("BRQ0000000001"))).toMatchObject({
            reason: SETUP_NOT_FINISHED
          })
          expect(yield* Effect.flip(provider.completeMandateSetup("BRQ0000000002"))).toMatchObject({
            reason: SETUP_CANCELLED
          })
        })
    )
  )

  it.live(
    "answers the existing resource on an idempotent creation conflict, and fulfils a billing request ready to be",
    () =>
      withProvider(
        {
          "POST /payments": {
            status: 409,
            body: {
              error: {
                message: "A resource has already been created with this idempotency key",
                type: "invalid_state",
                code: 409,
                errors: [
                  {
                    reason: "idempotent_creation_conflict",
                    message: "conflict",
                    links: { conflicting_resource_id: "PM0000000001" }
                  }
                ]
              }
            }
          },
          "GET /payments/PM0000000001": { status: 200, body: { payments: payment } },
          "GET /billing_requests/BRQ0000000001": {
            status: 200,
            body: { billing_requests: { ...billingRequest, status: "ready_to_fulfil" } }
          },
          "POST /billing_requests/BRQ0000000001/actions/fulfil": {
            status: 200,
            body: { billing_requests: fulfilledRequest }
          }
        },
        (seen) =>
          Effect.gen(function* () {
            const provider = yield* DirectDebit
            const again = yield* provider.createPayment(
              {
                amount: 1200,
                currency: "GBP",
                mandateId: "MD0000000001",
                description: "CB-000001",
                chargeDate: null,
                invoice: { id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", number: "CB-000001" }
              },
              "invoice-1"
            )
            expect(again.id).toBe("PM0000000001")
            expect(yield* provider.completeMandateSetup("BRQ0000000001")).toBe("MD0000000001")
            expect(seen.at(-1)).toMatchObject({
              method: "POST",
              path: "/billing_requests/BRQ0000000001/actions/fulfil",
              body: { data: {} }
            })
          })
      )
  )

  it.live("treats a server failure or a refused token as a defect, not a refusal", () =>
    withProvider(
      {
        "GET /mandates/MD1": { status: 500, body: { error: { message: "boom", type: "gocardless", errors: [] } } },
        "GET /mandates/MD2": {
          status: 401,
          body: { error: { message: "bad token", type: "invalid_api_usage", errors: [] } }
        }
      },
      () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          for (const id of ["MD1", "MD2"]) {
            const exit = yield* Effect.exit(provider.getMandate(id))
            expect(Exit.isFailure(exit) && exit.cause._tag === "Die").toBe(true)
          }
        })
    )
  )

  it.live("lists a mandate's payments page after page, following the after cursor until it is null", () =>
    withProvider(
      {
        "GET /payments?mandate=MD0000000001&limit=500": {
          status: 200,
          body: {
            payments: [
              { ...payment, id: "PM3", status: "paid_out" },
              { ...payment, id: "PM2", status: "failed", amount: "700" }
            ],
            meta: { cursors: { before: null, after: "PM2" }, limit: 500 }
          }
        },
        "GET /payments?mandate=MD0000000001&limit=500&after=PM2": {
          status: 200,
          body: { payments: [{ ...payment, id: "PM1" }], meta: { cursors: { before: "PM1", after: null }, limit: 500 } }
        }
      },
      (seen) =>
        Effect.gen(function* () {
          const listed = yield* (yield* DirectDebit).listPayments("MD0000000001")
          expect(listed.map((p) => [p.id, p.status, p.amount, p.mandateId])).toEqual([
            ["PM3", "paid_out", 1200, "MD0000000001"],
            ["PM2", "failed", 700, "MD0000000001"],
            ["PM1", "pending_submission", 1200, "MD0000000001"]
          ])
          expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
            "GET /payments?mandate=MD0000000001&limit=500",
            "GET /payments?mandate=MD0000000001&limit=500&after=PM2"
          ])
        })
    )
  )
})
