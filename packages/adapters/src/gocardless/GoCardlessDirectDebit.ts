import {
  DirectDebit,
  DirectDebitRefused,
  type ProviderPayment,
  SETUP_CANCELLED,
  SETUP_NOT_FINISHED
} from "@cisbook/core/billing/mandates/DirectDebit"
import { DirectDebitFault } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { type Duration, Effect, Layer, Redacted, Schema } from "effect"
import { randomUUID } from "node:crypto"
import {
  BankAccountBody,
  BillingRequestBody,
  BillingRequestFlowBody,
  ErrorBody,
  GOCARDLESS_VERSION,
  MandateBody,
  MAX_PAGE_LIMIT,
  PaymentBody,
  PaymentsPageBody
} from "./GoCardlessWire.js"
import { defaultPolicy, goCardlessRequest } from "./GoCardlessRequest.js"

export interface GoCardlessOptions {
  /** e.g. https://api-sandbox.gocardless.com, or the service's own sandbox. */
  readonly baseUrl: string
  readonly accessToken: Redacted.Redacted<string>
  /** How many items a list asks for a page (1 to 500); 500 unless given. */
  readonly pageLimit?: number
  /** Headers sent on every call besides GoCardless's own: the server's mark on calls to its own sandbox. */
  readonly headers?: Readonly<Record<string, string>>
  /** The time limit of each try of a call (GOCARDLESS_TIMEOUT_MS); 10 seconds unless given. */
  readonly timeout?: Duration.Duration
}

type Method = "GET" | "POST"

/** The first specific error of a body (a validation message names its field), else the body's own. */
const refusal = (body: typeof ErrorBody.Type) => {
  const first = body.error.errors[0]
  const message = first?.message ?? body.error.message
  return new DirectDebitRefused({
    message: first?.field === undefined ? message : `${first.field} ${message}`,
    reason: first?.reason ?? body.error.type
  })
}

/**
 * GoCardless's error types that are nobody's doing but ours (`invalid_api_usage`: a request it
 * cannot take) or its own (`gocardless`): never the caller's mistake.
 */
const FAULT_TYPES = new Set(["invalid_api_usage", "gocardless"])

/**
 * GoCardless answers an unknown id 404 `invalid_api_usage` `resource_not_found`: a fact about the
 * id asked for (a setup or an event's resource it does not know), refused as the port says.
 */
const NOT_FOUND = "resource_not_found"

const decodeError = Schema.decodeUnknown(Schema.parseJson(ErrorBody))

/**
 * The DirectDebit port over GoCardless's API, in its own wire format: bearer token,
 * `GoCardless-Version`, JSON envelopes named after the resource, an `Idempotency-Key` on every
 * POST (a retried create answers the resource it made). Every call goes through
 * goCardlessRequest (time limit, retries, GoCardless unavailable). `validation_failed` and
 * `invalid_state` bodies (and an unknown id, `resource_not_found`) are DirectDebitRefused;
 * `invalid_api_usage`, `gocardless` and a refused token are DirectDebitFault defects, logged as
 * errors.
 */
export const goCardlessDirectDebitOver = (options: GoCardlessOptions) =>
  Layer.effect(
    DirectDebit,
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const request = goCardlessRequest(http, defaultPolicy(options.timeout))
      const base = options.baseUrl.replace(/\/+$/, "")
      const pageLimit = Math.min(options.pageLimit ?? MAX_PAGE_LIMIT, MAX_PAGE_LIMIT)

      const send = (method: Method, path: string, body?: unknown, idempotencyKey?: string) => {
        const plain = HttpClientRequest.make(method)(`${base}${path}`).pipe(
          HttpClientRequest.bearerToken(Redacted.value(options.accessToken)),
          HttpClientRequest.setHeaders({
            "GoCardless-Version": GOCARDLESS_VERSION,
            Accept: "application/json",
            "GoCardless-Client-Library": "cisbook",
            ...options.headers
          })
        )
        return request(
          method === "POST"
            ? HttpClientRequest.setHeader(
                HttpClientRequest.bodyUnsafeJson(plain, body ?? {}),
                "Idempotency-Key",
                idempotencyKey ?? randomUUID()
              )
            : plain
        )
      }

      /** A fault of ours or GoCardless's: said as an error, and a defect of the call. */
      const fault = (method: Method, path: string, status: number, reason: string, message: string) =>
        Effect.logError("GoCardless refused a call for a fault of ours or its own").pipe(
          Effect.annotateLogs({ call: `${method} ${path}`, status, reason, message }),
          Effect.zipRight(
            Effect.die(
              new DirectDebitFault({ reason, message: `GoCardless answered ${status} (${reason}): ${message}` })
            )
          )
        )

      const call = <A, I>(
        schema: Schema.Schema<A, I>,
        method: Method,
        path: string,
        body?: unknown,
        idempotencyKey?: string
      ): Effect.Effect<A, DirectDebitRefused> =>
        Effect.gen(function* () {
          const answer = yield* send(method, path, body, idempotencyKey)
          if (answer.status < 300) {
            return yield* Schema.decodeUnknown(Schema.parseJson(schema))(answer.text).pipe(Effect.orDie)
          }
          if (answer.status === 401 || answer.status === 403) {
            return yield* fault(method, path, answer.status, "access_token_refused", answer.text)
          }
          const error = yield* decodeError(answer.text).pipe(
            Effect.catchAll(() => fault(method, path, answer.status, "unreadable_error", answer.text))
          )
          // As GoCardless's own clients do: a create repeated with its key answers what it made.
          const conflicting = error.error.errors.find((e) => e.reason === "idempotent_creation_conflict")?.links?.[
            "conflicting_resource_id"
          ]
          if (method === "POST" && conflicting !== undefined) {
            return yield* call(schema, "GET", `${path}/${conflicting}`)
          }
          const first = error.error.errors[0]
          if (FAULT_TYPES.has(error.error.type) && first?.reason !== NOT_FOUND) {
            return yield* fault(
              method,
              path,
              answer.status,
              first?.reason ?? error.error.type,
              first?.message ?? error.error.message
            )
          }
          return yield* refusal(error)
        })

      return DirectDebit.of({
        startMandateSetup: (setup, key) =>
          Effect.gen(function* () {
            const { billing_requests: request } = yield* call(
              BillingRequestBody,
              "POST",
              "/billing_requests",
              {
                billing_requests: {
                  mandate_request: { scheme: "bacs", currency: "GBP" },
                  metadata: { user_id: setup.userId }
                }
              },
              `${key}:billing_request`
            )
            const redirectUri = new URL(setup.successRedirectUrl)
            redirectUri.searchParams.set("redirect_flow_id", request.id)
            const customer = setup.prefilledCustomer
            const { billing_request_flows: flow } = yield* call(
              BillingRequestFlowBody,
              "POST",
              "/billing_request_flows",
              {
                billing_request_flows: {
                  redirect_uri: redirectUri.toString(),
                  exit_uri: setup.successRedirectUrl,
                  prefilled_customer: {
                    given_name: customer.givenName,
                    family_name: customer.familyName,
                    company_name: customer.companyName,
                    email: customer.email,
                    address_line1: customer.addressLine1,
                    address_line2: customer.addressLine2,
                    address_line3: customer.addressLine3,
                    postal_code: customer.postalCode,
                    country_code: customer.countryCode
                  },
                  links: { billing_request: request.id }
                }
              }
              // A key of its own: GoCardless cannot answer a conflicting flow (flows have no GET),
              // and a second flow of the same request is as good as the first.
            )
            return { id: request.id, redirectUrl: flow.authorisation_url }
          }),
        completeMandateSetup: (id) => {
          const path = `/billing_requests/${encodeURIComponent(id)}`
          const mandateOfRequest = ({ billing_requests: request }: typeof BillingRequestBody.Type) => {
            const mandate = request.links.mandate_request_mandate
            if (request.status === "fulfilled" && mandate !== undefined) return Effect.succeed(mandate)
            if (request.status === "cancelled") {
              return Effect.fail(
                new DirectDebitRefused({ reason: SETUP_CANCELLED, message: "The billing request was cancelled" })
              )
            }
            return Effect.fail(
              new DirectDebitRefused({
                reason: SETUP_NOT_FINISHED,
                message: `The customer has not finished the billing request flow (the request is ${request.status})`
              })
            )
          }
          return call(BillingRequestBody, "GET", path).pipe(
            Effect.flatMap((read) =>
              read.billing_requests.status === "ready_to_fulfil"
                ? call(BillingRequestBody, "POST", `${path}/actions/fulfil`, { data: {} }, `${id}:fulfil`).pipe(
                    // Fulfilled meanwhile by another completion: read where it stands.
                    Effect.catchTag("DirectDebitRefused", () => call(BillingRequestBody, "GET", path))
                  )
                : Effect.succeed(read)
            ),
            Effect.flatMap(mandateOfRequest)
          )
        },
        cancelMandateSetup: (id) =>
          call(BillingRequestBody, "POST", `/billing_requests/${encodeURIComponent(id)}/actions/cancel`, {
            data: {}
          }).pipe(Effect.asVoid),
        getMandate: (id) => call(MandateBody, "GET", `/mandates/${encodeURIComponent(id)}`).pipe(Effect.map(mandateOf)),
        cancelMandate: (id) =>
          call(MandateBody, "POST", `/mandates/${encodeURIComponent(id)}/actions/cancel`, { data: {} }).pipe(
            Effect.map(mandateOf)
          ),
        getBankAccount: (id) =>
          call(BankAccountBody, "GET", `/customer_bank_accounts/${encodeURIComponent(id)}`).pipe(
            Effect.map(({ customer_bank_accounts: a }) => ({
              accountHolderName: a.account_holder_name,
              accountNumberEnding: a.account_number_ending,
              bankName: a.bank_name
            }))
          ),
        createPayment: (payment, key) =>
          call(
            PaymentBody,
            "POST",
            "/payments",
            {
              payments: {
                amount: payment.amount,
                currency: payment.currency,
                description: payment.description,
                ...(payment.chargeDate === null ? {} : { charge_date: payment.chargeDate }),
                metadata: { invoice_id: payment.invoice.id, invoice_number: payment.invoice.number },
                links: { mandate: payment.mandateId }
              }
            },
            key
          ).pipe(Effect.map(paymentOf)),
        getPayment: (id) => call(PaymentBody, "GET", `/payments/${encodeURIComponent(id)}`).pipe(Effect.map(paymentOf)),
        listPayments: (mandateId) =>
          Effect.gen(function* () {
            const payments: Array<ProviderPayment> = []
            let after: string | null = null
            do {
              const query = new URLSearchParams({ mandate: mandateId, limit: String(pageLimit) })
              if (after !== null) query.set("after", after)
              const page: typeof PaymentsPageBody.Type = yield* call(PaymentsPageBody, "GET", `/payments?${query}`)
              for (const payment of page.payments) payments.push(paymentOf({ payments: payment }))
              after = page.meta.cursors.after
            } while (after !== null)
            return payments
          }),
        retryPayment: (id) =>
          call(PaymentBody, "POST", `/payments/${encodeURIComponent(id)}/actions/retry`, { data: {} }).pipe(
            Effect.map(paymentOf)
          )
      })
    })
  )

/** {@link goCardlessDirectDebitOver} on the platform's fetch. */
export const goCardlessDirectDebit = (options: GoCardlessOptions) =>
  goCardlessDirectDebitOver(options).pipe(Layer.provide(FetchHttpClient.layer))

const mandateOf = ({ mandates: m }: typeof MandateBody.Type) => ({
  id: m.id,
  status: m.status,
  nextPossibleChargeDate: m.next_possible_charge_date,
  customerBankAccountId: m.links.customer_bank_account
})

const paymentOf = ({ payments: p }: typeof PaymentBody.Type) => ({
  id: p.id,
  status: p.status,
  amount: p.amount,
  chargeDate: p.charge_date,
  mandateId: p.links.mandate
})
