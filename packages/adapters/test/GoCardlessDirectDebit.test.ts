import { goCardlessDirectDebit } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import {
  CANCELLATION_FAILED,
  DirectDebit,
  type NewPayment,
  SETUP_CANCELLED,
  SETUP_NOT_FINISHED
} from "@cisbook/core/billing/mandates/DirectDebit"
import { DirectDebitFault } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Redacted } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { exampleOf, type Json, published as publishedFile } from "./PublishedGoCardless.js"

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

/** GoCardless's published answers (fixtures/gocardless), as they are unless a line says what is set. */
const request = exampleOf("billing_requests", "get")
const withStatus = (status: string) => ({
  billing_requests: { ...(request["billing_requests"] as Json), status }
})
const flow = exampleOf("billing_request_flows", "create")
const payment = exampleOf("payments", "create")
const published = (body: Json, status = 200): Reply => ({ status, body })

/** A payment of CB-000001's £10.00 on the published mandate MD123. */
const newPayment: NewPayment = {
  amount: 1000,
  currency: "GBP",
  mandateId: "MD123",
  description: "CB-000001",
  chargeDate: null,
  invoice: { id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", number: "CB-000001" }
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

describe("the GoCardless adapter speaks GoCardless's wire format, reading its published answers", () => {
  it.live(
    "sends the token, the API version and JSON on every request, an Idempotency-Key on every creation only, and resource envelopes",
    () =>
      withProvider(
        {
          "POST /billing_requests": published(exampleOf("billing_requests", "create"), 201),
          "POST /billing_request_flows": published(flow, 201),
          // GoCardless publishes no fulfilled billing request: its example, fulfilled.
          "GET /billing_requests/BRQ123": published(withStatus("fulfilled")),
          "POST /payments": published(payment, 201),
          "POST /mandates/MD123/actions/cancel": published(
            publishedFile("gocardless-pro-java", "cancel_a_mandate_response.json")
          ),
          "POST /payments/PM123/actions/retry": published(exampleOf("payments", "retry")),
          "GET /payments/PM123": published(exampleOf("payments", "get")),
          "GET /customer_bank_accounts/BA123": published(exampleOf("customer_bank_accounts", "get"))
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
            expect(created).toEqual({
              id: "BRQ123",
              redirectUrl: "https://monzo.com/abc-123-things",
              expiresAt: new Date("2024-01-15T10:00:00.000Z")
            })
            expect(yield* provider.completeMandateSetup("BRQ123")).toBe("MD123")
            const made = yield* provider.createPayment(newPayment, "invoice-1")
            expect(made).toEqual({
              id: "PM123",
              status: "submitted",
              amount: 1000,
              chargeDate: "2014-05-21",
              mandateId: "MD123"
            })
            expect(yield* provider.cancelMandate("MD123")).toEqual({
              id: "MD00001P1KTRNY",
              status: "cancelled",
              nextPossibleChargeDate: null,
              customerBankAccountId: "BA00001NWCGKRB",
              newMandateId: null
            })
            // Submitted again: the retry's published answer is a payment being collected.
            expect((yield* provider.retryPayment("PM123")).status).toBe("submitted")
            expect((yield* provider.getPayment("PM123")).amount).toBe(1000)
            expect(yield* provider.getBankAccount("BA123")).toEqual({
              accountHolderName: "Billie Jean",
              accountNumberEnding: "1234",
              bankName: "BARCLAYS BANK PLC"
            })

            for (const sent of seen) {
              expect(sent.headers["authorization"]).toBe("Bearer sandbox_token_123")
              expect(sent.headers["gocardless-version"]).toBe("2015-07-06")
              expect(sent.headers["accept"]).toBe("application/json")
              if (sent.method === "POST") expect(sent.headers["content-type"]).toMatch(/^application\/json/)
            }
            const [createRequest, createFlow, complete, createPayment, cancel, retry] = seen
            expect(createRequest?.headers["idempotency-key"]).toBe("key-flow-1:billing_request")
            expect(createRequest?.body).toEqual({
              billing_requests: {
                mandate_request: { scheme: "bacs", currency: "GBP" },
                metadata: { user_id: "user-1" }
              }
            })
            expect(createFlow?.headers["idempotency-key"]).toMatch(/\S/)
            expect(createFlow?.headers["idempotency-key"]).not.toMatch(/^key-flow-1/)
            expect(createFlow?.body).toEqual({
              billing_request_flows: {
                redirect_uri: "https://app.example/done?from=setup&redirect_flow_id=BRQ123",
                exit_uri: "https://app.example/done?from=setup",
                links: { billing_request: "BRQ123" },
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
            expect([complete?.method, complete?.path]).toEqual(["GET", "/billing_requests/BRQ123"])
            expect(createPayment?.headers["idempotency-key"]).toBe("invoice-1")
            expect(createPayment?.body).toEqual({
              payments: {
                amount: 1000,
                currency: "GBP",
                description: "CB-000001",
                retry_if_possible: false,
                metadata: { invoice_id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", invoice_number: "CB-000001" },
                links: { mandate: "MD123" }
              }
            })
            // Actions are not deduplicated by GoCardless: they carry no Idempotency-Key.
            expect(cancel?.body).toEqual({ data: {} })
            expect(retry?.body).toEqual({ data: {} })
            expect(cancel?.headers["idempotency-key"]).toBeUndefined()
            expect(retry?.headers["idempotency-key"]).toBeUndefined()
          })
      )
  )

  it.live("with Success+, payments ask GoCardless to retry them itself (retry_if_possible)", () =>
    Effect.scoped(
      Effect.flatMap(fakeGoCardless({ "POST /payments": published(payment, 201) }), ({ baseUrl, seen }) =>
        Effect.gen(function* () {
          yield* (yield* DirectDebit).createPayment(newPayment, "invoice-1")
          expect(seen[0]?.body).toMatchObject({ payments: { retry_if_possible: true } })
        }).pipe(
          Effect.provide(
            goCardlessDirectDebit({ baseUrl, accessToken: Redacted.make("sandbox_token_123"), successPlus: true })
          )
        )
      )
    )
  )

  it.live("maps GoCardless's published error bodies to DirectDebitRefused with its own message and reason", () =>
    withProvider(
      {
        "POST /billing_requests": published(exampleOf("billing_requests", "create"), 201),
        "POST /billing_request_flows": published(
          publishedFile("gocardless-pro-python", "validation_failed_error.json"),
          422
        ),
        "GET /billing_requests/BRQ123": published(request),
        // GoCardless publishes no cancelled billing request: its example, cancelled.
        "GET /billing_requests/BRQ124": published(withStatus("cancelled")),
        "POST /mandates/MD123/actions/cancel": published(publishedFile("gocardless-nodejs", "invalid_state.json"), 422)
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
            message: "branch_code must be a number"
          })
          expect(yield* Effect.flip(provider.completeMandateSetup("BRQ123"))).toMatchObject({
            reason: SETUP_NOT_FINISHED
          })
          expect(yield* Effect.flip(provider.completeMandateSetup("BRQ124"))).toMatchObject({
            reason: SETUP_CANCELLED
          })
          expect(yield* Effect.flip(provider.cancelMandate("MD123"))).toMatchObject({
            reason: CANCELLATION_FAILED,
            message: "Payment cannot be cancelled"
          })
        })
    )
  )

  it.live("answers the existing resource on GoCardless's published idempotent creation conflict", () =>
    withProvider(
      {
        "POST /payments": published(
          publishedFile("gocardless-pro-python", "idempotent_creation_conflict_error.json"),
          409
        ),
        "GET /payments/PM00001078ZJJN": published(exampleOf("payments", "get"))
      },
      (seen) =>
        Effect.gen(function* () {
          const again = yield* (yield* DirectDebit).createPayment(newPayment, "invoice-1")
          expect(again.id).toBe("PM123")
          expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /payments", "GET /payments/PM00001078ZJJN"])
        })
    )
  )

  it.live("treats a refused token and invalid_api_usage as a fault of ours, a defect, not a refusal", () =>
    withProvider(
      {
        "GET /mandates/MD1": published(publishedFile("gocardless-pro-python", "unauthorized_error.json"), 401),
        "GET /mandates/MD2": published(publishedFile("gocardless-pro-python", "invalid_api_usage_error.json"), 400)
      },
      (seen) =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          for (const id of ["MD1", "MD2"]) {
            const exit = yield* Effect.exit(provider.getMandate(id))
            expect(
              Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
            ).toBeInstanceOf(DirectDebitFault)
          }
          expect(seen).toHaveLength(2)
        })
    )
  )
})
