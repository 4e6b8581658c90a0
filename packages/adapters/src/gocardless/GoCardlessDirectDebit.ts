import { DirectDebit, DirectDebitRefused, type ProviderPayment } from "@cisbook/core/billing/DirectDebit"
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Effect, Layer, Redacted, Schema } from "effect"
import { randomUUID } from "node:crypto"
import {
  BankAccountBody,
  ErrorBody,
  GOCARDLESS_VERSION,
  MandateBody,
  MAX_PAGE_LIMIT,
  PaymentBody,
  PaymentsPageBody,
  RedirectFlowBody
} from "./GoCardlessWire.js"

export interface GoCardlessOptions {
  /** e.g. https://api-sandbox.gocardless.com, or the service's own sandbox. */
  readonly baseUrl: string
  readonly accessToken: Redacted.Redacted<string>
  /** How many items a list asks for a page (1 to 500); 500 unless given. */
  readonly pageLimit?: number
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
 * The DirectDebit port over GoCardless's API, in its own wire format: bearer token,
 * `GoCardless-Version`, JSON envelopes named after the resource, an `Idempotency-Key` on every
 * POST (a retried create answers the resource it made), `{ "error": ... }` bodies mapped to
 * DirectDebitRefused. Authentication, rate-limit and server failures are defects.
 */
export const goCardlessDirectDebit = (options: GoCardlessOptions) =>
  Layer.effect(
    DirectDebit,
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const base = options.baseUrl.replace(/\/+$/, "")
      const pageLimit = Math.min(options.pageLimit ?? MAX_PAGE_LIMIT, MAX_PAGE_LIMIT)

      const send = (method: Method, path: string, body?: unknown, idempotencyKey?: string) => {
        const request = HttpClientRequest.make(method)(`${base}${path}`).pipe(
          HttpClientRequest.bearerToken(Redacted.value(options.accessToken)),
          HttpClientRequest.setHeaders({
            "GoCardless-Version": GOCARDLESS_VERSION,
            Accept: "application/json",
            "GoCardless-Client-Library": "cisbook"
          })
        )
        const withBody =
          method === "POST"
            ? HttpClientRequest.setHeader(
                HttpClientRequest.bodyUnsafeJson(request, body ?? {}),
                "Idempotency-Key",
                idempotencyKey ?? randomUUID()
              )
            : request
        return http.execute(withBody).pipe(Effect.scoped, Effect.orDie)
      }

      const errorOf = (response: HttpClientResponse.HttpClientResponse) =>
        response.json.pipe(Effect.flatMap(Schema.decodeUnknown(ErrorBody)), Effect.orDie)

      const call = <A, I>(
        schema: Schema.Schema<A, I>,
        method: Method,
        path: string,
        body?: unknown,
        idempotencyKey?: string
      ): Effect.Effect<A, DirectDebitRefused> =>
        Effect.gen(function* () {
          const response = yield* send(method, path, body, idempotencyKey)
          if (response.status < 300) {
            return yield* response.json.pipe(Effect.flatMap(Schema.decodeUnknown(schema)), Effect.orDie)
          }
          if ([401, 403, 429].includes(response.status) || response.status >= 500) {
            const text = yield* response.text.pipe(Effect.orDie)
            return yield* Effect.dieMessage(`GoCardless answered ${response.status} to ${method} ${path}: ${text}`)
          }
          const error = yield* errorOf(response)
          // As GoCardless's own clients do: a create repeated with its key answers what it made.
          const conflicting = error.error.errors.find((e) => e.reason === "idempotent_creation_conflict")?.links?.[
            "conflicting_resource_id"
          ]
          if (method === "POST" && conflicting !== undefined) {
            return yield* call(schema, "GET", `${path}/${conflicting}`)
          }
          return yield* refusal(error)
        })

      return DirectDebit.of({
        createRedirectFlow: (flow, key) =>
          call(
            RedirectFlowBody,
            "POST",
            "/redirect_flows",
            {
              redirect_flows: {
                description: flow.description,
                session_token: flow.sessionToken,
                success_redirect_url: flow.successRedirectUrl,
                prefilled_customer: {
                  given_name: flow.prefilledCustomer.givenName,
                  family_name: flow.prefilledCustomer.familyName,
                  company_name: flow.prefilledCustomer.companyName,
                  email: flow.prefilledCustomer.email,
                  address_line1: flow.prefilledCustomer.addressLine1,
                  address_line2: flow.prefilledCustomer.addressLine2,
                  address_line3: flow.prefilledCustomer.addressLine3,
                  postal_code: flow.prefilledCustomer.postalCode,
                  country_code: flow.prefilledCustomer.countryCode
                }
              }
            },
            key
          ).pipe(Effect.map(({ redirect_flows: f }) => ({ id: f.id, redirectUrl: f.redirect_url }))),
        completeRedirectFlow: (id, sessionToken) =>
          call(RedirectFlowBody, "POST", `/redirect_flows/${encodeURIComponent(id)}/actions/complete`, {
            data: { session_token: sessionToken }
          }).pipe(
            Effect.catchIf(
              (error) => error.reason === "redirect_flow_already_completed",
              () => call(RedirectFlowBody, "GET", `/redirect_flows/${encodeURIComponent(id)}`)
            ),
            Effect.flatMap(({ redirect_flows: f }) =>
              f.links.mandate === undefined
                ? Effect.dieMessage(`GoCardless completed redirect flow ${id} without a mandate`)
                : Effect.succeed(f.links.mandate)
            )
          ),
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
                ...(payment.invoice === undefined
                  ? {}
                  : { metadata: { invoice_id: payment.invoice.id, invoice_number: payment.invoice.number } }),
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
  ).pipe(Layer.provide(FetchHttpClient.layer))

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
