import {
  DirectDebit,
  DirectDebitRefused,
  type ProviderMandate,
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
import { makeGoCardlessBudget } from "./GoCardlessBudget.js"
import {
  bulkPolicy,
  type GoCardlessAnswer,
  goCardlessRequest,
  interactivePolicy,
  unavailable
} from "./GoCardlessRequest.js"

/** Who calls through a client: users' requests (and the server's workers), or bulk work (the billing run). */
export type GoCardlessCaller = "interactive" | "bulk"

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
  /**
   * GOCARDLESS_SUCCESS_PLUS: the account has GoCardless's intelligent retries, so payments are
   * created with `retry_if_possible: true` and GoCardless retries a failure itself when it says
   * so (`will_attempt_retry`); false unless given.
   */
  readonly successPlus?: boolean
  /**
   * Who calls through this client: `interactive` (users' requests, the default) may spend
   * GoCardless's rate limit down to its last few requests and waits at most 5 seconds for it;
   * `bulk` (the billing run) leaves a tenth of it to users' requests and waits out its reset.
   */
  readonly caller?: GoCardlessCaller
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

/** The payment statuses of a payment collected, or being collected: what a retry leads to. */
const COLLECTING = new Set(["pending_customer_approval", "pending_submission", "submitted", "confirmed", "paid_out"])

const decodeError = Schema.decodeUnknown(Schema.parseJson(ErrorBody))

/**
 * The DirectDebit port over GoCardless's API, in its own wire format: bearer token,
 * `GoCardless-Version`, JSON envelopes named after the resource, an `Idempotency-Key` on every
 * creation (a retried create answers the resource it made). Every call goes through
 * goCardlessRequest (time limit, retries of what is safe to repeat, GoCardless unavailable, paced
 * by the client's one budget of GoCardless's rate limit, see GoCardlessBudget). An
 * action (fulfil, cancel, retry) is sent once: GoCardless does not deduplicate actions, so one
 * whose outcome is unknown is never sent again but answered by reading its resource (see `act`).
 * `validation_failed` and `invalid_state` bodies (and an unknown id, `resource_not_found`) are
 * DirectDebitRefused; `invalid_api_usage`, `gocardless` and a refused token are DirectDebitFault
 * defects, logged as errors.
 */
export const goCardlessDirectDebitOver = (options: GoCardlessOptions) =>
  Layer.effect(
    DirectDebit,
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const policy = options.caller === "bulk" ? bulkPolicy(options.timeout) : interactivePolicy(options.timeout)
      const request = goCardlessRequest(http, policy, yield* makeGoCardlessBudget)
      const base = options.baseUrl.replace(/\/+$/, "")
      const pageLimit = Math.min(options.pageLimit ?? MAX_PAGE_LIMIT, MAX_PAGE_LIMIT)

      /** One call; a creation carries its idempotency key, an action none (GoCardless would not honour it). */
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
        const withBody = method === "POST" ? HttpClientRequest.bodyUnsafeJson(plain, body ?? {}) : plain
        return request(
          idempotencyKey === undefined
            ? withBody
            : HttpClientRequest.setHeader(withBody, "Idempotency-Key", idempotencyKey)
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

      /** GoCardless's answer read: the resource, or why not. */
      const read = <A, I>(
        schema: Schema.Schema<A, I>,
        method: Method,
        path: string,
        answer: GoCardlessAnswer
      ): Effect.Effect<A, DirectDebitRefused> =>
        Effect.gen(function* () {
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

      /** A read or a creation: safe to repeat, so GoCardless unavailable is the only unknown. */
      const call = <A, I>(
        schema: Schema.Schema<A, I>,
        method: Method,
        path: string,
        body?: unknown,
        idempotencyKey?: string
      ): Effect.Effect<A, DirectDebitRefused> =>
        send(method, path, body, idempotencyKey).pipe(
          Effect.catchTag("OutcomeUnknown", unavailable),
          Effect.flatMap((answer) => read(schema, method, path, answer))
        )

      /**
       * An action on the resource at `path` (`POST {path}/actions/{name}`), sent once. Its outcome
       * unknown (no answer in time, a dropped connection, a 5xx), the resource is read: already
       * where the action leads (`done`), that is the answer, else GoCardless did not do it and the
       * call is unavailable (the caller tries again later, once). A refusal is resolved the same
       * way when `refusalRead`: a retry GoCardless did make, its answer lost, then refused when
       * asked again (`retry_failed`), is no refusal of what did happen.
       */
      const act = <A, I>(
        schema: Schema.Schema<A, I>,
        path: string,
        name: string,
        done: (resource: A) => boolean,
        refusalRead = true
      ): Effect.Effect<A, DirectDebitRefused> => {
        const actionPath = `${path}/actions/${name}`
        const readBack = <E>(otherwise: (resource: A) => Effect.Effect<A, E>, why: string) =>
          Effect.logWarning("A GoCardless action was not answered as done; reading where its resource stands").pipe(
            Effect.annotateLogs({ call: `POST ${actionPath}`, reason: why }),
            Effect.zipRight(call(schema, "GET", path)),
            Effect.flatMap((now) => (done(now) ? Effect.succeed(now) : otherwise(now)))
          )
        return send("POST", actionPath, { data: {} }).pipe(
          Effect.matchEffect({
            onFailure: (unknown) => readBack(() => unavailable(unknown), unknown.message),
            onSuccess: (answer) =>
              read(schema, "POST", actionPath, answer).pipe(
                Effect.catchTag("DirectDebitRefused", (refused) =>
                  refusalRead ? readBack(() => Effect.fail(refused), refused.reason) : Effect.fail(refused)
                )
              )
          })
        )
      }

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
              },
              // A key of its own: GoCardless cannot answer a conflicting flow (flows have no GET),
              // and a second flow of the same request is as good as the first.
              randomUUID()
            )
            return { id: request.id, redirectUrl: flow.authorisation_url, expiresAt: flow.expires_at }
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
            Effect.flatMap((found) =>
              found.billing_requests.status === "ready_to_fulfil"
                ? act(BillingRequestBody, path, "fulfil", (r) => r.billing_requests.status === "fulfilled").pipe(
                    // Not fulfilled, and refused: read where it stands (cancelled meanwhile, say).
                    Effect.catchTag("DirectDebitRefused", () => call(BillingRequestBody, "GET", path))
                  )
                : Effect.succeed(found)
            ),
            Effect.flatMap(mandateOfRequest)
          )
        },
        cancelMandateSetup: (id) =>
          act(
            BillingRequestBody,
            `/billing_requests/${encodeURIComponent(id)}`,
            "cancel",
            (r) => r.billing_requests.status === "cancelled"
          ).pipe(Effect.asVoid),
        getMandate: (id) => call(MandateBody, "GET", `/mandates/${encodeURIComponent(id)}`).pipe(Effect.map(mandateOf)),
        // A refusal is the port's CANCELLATION_FAILED (the mandate no longer live), left to the caller.
        cancelMandate: (id) =>
          act(
            MandateBody,
            `/mandates/${encodeURIComponent(id)}`,
            "cancel",
            (m) => m.mandates.status === "cancelled",
            false
          ).pipe(Effect.map(mandateOf)),
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
                retry_if_possible: options.successPlus ?? false,
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
          act(PaymentBody, `/payments/${encodeURIComponent(id)}`, "retry", (p) =>
            COLLECTING.has(p.payments.status)
          ).pipe(Effect.map(paymentOf))
      })
    })
  )

/** {@link goCardlessDirectDebitOver} on the platform's fetch. */
export const goCardlessDirectDebit = (options: GoCardlessOptions) =>
  goCardlessDirectDebitOver(options).pipe(Layer.provide(FetchHttpClient.layer))

const mandateOf = ({ mandates: m }: typeof MandateBody.Type): ProviderMandate => ({
  id: m.id,
  status: m.status,
  nextPossibleChargeDate: m.next_possible_charge_date,
  customerBankAccountId: m.links.customer_bank_account,
  // A replaced mandate is cancelled and names the new one; a link to itself names none.
  newMandateId:
    m.status === "cancelled" && m.links.new_mandate !== undefined && m.links.new_mandate !== m.id
      ? m.links.new_mandate
      : null
})

const paymentOf = ({ payments: p }: typeof PaymentBody.Type) => ({
  id: p.id,
  status: p.status,
  amount: p.amount,
  chargeDate: p.charge_date,
  mandateId: p.links.mandate
})
