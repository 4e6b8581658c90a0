import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { Effect } from "effect"
import {
  client,
  e2e,
  IdentityProvider,
  raw,
  sandboxDirectDebit,
  signUp,
  SqlTestPorts,
  uniqueTenantCode
} from "./E2E.js"

const SUCCESS_URL = "https://app.cisbook.example/billing/done?from=setup"

const address = {
  companyName: " Lovelace Builders Ltd ",
  billingEmail: "Accounts@Lovelace.example",
  addressLine1: "1 Analytical Row",
  addressLine2: "Marylebone",
  postcode: "nw16xe",
  country: "gb"
}

/** The hosted page's form, posted as a browser without JavaScript posts it. */
const postBankDetails = (redirectUrl: string, form: Record<string, string>) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(HttpClientRequest.post(new URL(redirectUrl).pathname).pipe(HttpClientRequest.bodyUrlParams(form)))
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (html) => ({ status: response.status, location: response.headers["location"], html }))
    )
  )

const goodBank = { account_holder_name: "Ada Lovelace", sort_code: "20-00-00", account_number: "5577 9911" }

const simulate = (scenario: string, resource: string) =>
  raw(undefined, "POST", `/sandbox/gocardless/scenario_simulators/${scenario}/actions/run`, {
    data: { links: { resource } }
  })

/** A user with a billing address and a started setup. */
const startedSetup = Effect.gen(function* () {
  const caller = yield* signUp("payer")
  yield* caller.api.billing.updateBillingProfile({ payload: address })
  const setup = yield* caller.api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
  return { ...caller, setup }
})

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("billing over HTTP", (it) => {
  describe("GET and PUT /me/billing/profile", () => {
    it.effect("is empty and NotStarted until set; a PUT stores the normalised address and answers it", () =>
      Effect.gen(function* () {
        const { api } = yield* signUp("profile")
        expect({ ...(yield* api.billing.getBillingProfile()) }).toEqual({
          companyName: null,
          billingEmail: null,
          addressLine1: null,
          addressLine2: null,
          addressLine3: null,
          postcode: null,
          country: null,
          mandateStatus: "NotStarted"
        })
        const saved = yield* api.billing.updateBillingProfile({ payload: address })
        const expected = {
          companyName: "Lovelace Builders Ltd",
          billingEmail: "accounts@lovelace.example",
          addressLine1: "1 Analytical Row",
          addressLine2: "Marylebone",
          addressLine3: null,
          postcode: "NW1 6XE",
          country: "GB",
          mandateStatus: "NotStarted"
        }
        expect({ ...saved }).toEqual(expected)
        expect({ ...(yield* api.billing.getBillingProfile()) }).toEqual(expected)
        // Full replacement: an omitted optional line is cleared; a foreign postcode is kept as given.
        const { addressLine2: _dropped, ...withoutLine2 } = address
        const abroad = yield* api.billing.updateBillingProfile({
          payload: { ...withoutLine2, postcode: "75001", country: "FR" }
        })
        expect(abroad).toMatchObject({ addressLine2: null, postcode: "75001", country: "FR" })
      })
    )

    it.effect("answers 400 naming each invalid member, and changes nothing", () =>
      Effect.gen(function* () {
        const { api, key } = yield* signUp("badprofile")
        yield* api.billing.updateBillingProfile({ payload: address })
        const res = yield* raw(key, "PUT", "/me/billing/profile", {
          companyName: " ",
          billingEmail: "not-an-email",
          addressLine1: "1 Analytical Row",
          postcode: "XX1 1XX",
          country: "ZZ"
        })
        expect(res.status).toBe(400)
        expect(res.contentType).toMatch(/^application\/problem\+json/)
        expect(Object.keys(res.body?.errors ?? {}).sort()).toEqual(["billingEmail", "companyName", "country"])
        // A GB postcode is checked once the other members are valid.
        const badPostcode = yield* raw(key, "PUT", "/me/billing/profile", { ...address, postcode: "XX1 1XX" })
        expect(badPostcode.status).toBe(400)
        expect(badPostcode.body?.errors).toEqual({ postcode: ["Must be a UK postcode, for example SW1A 1AA"] })
        const missing = yield* raw(key, "PUT", "/me/billing/profile", {})
        expect(missing.status).toBe(400)
        expect(Object.keys(missing.body?.errors ?? {}).sort()).toEqual([
          "addressLine1",
          "billingEmail",
          "companyName",
          "country",
          "postcode"
        ])
        expect(yield* api.billing.getBillingProfile()).toMatchObject({ postcode: "NW1 6XE", country: "GB" })
      })
    )

    it.effect("is the caller's own: another user never sees or changes it", () =>
      Effect.gen(function* () {
        const ann = yield* signUp("ann")
        const bob = yield* signUp("bob")
        yield* ann.api.billing.updateBillingProfile({ payload: address })
        expect((yield* bob.api.billing.getBillingProfile()).companyName).toBeNull()
        yield* bob.api.billing.updateBillingProfile({ payload: { ...address, companyName: "Bob Ltd" } })
        expect((yield* ann.api.billing.getBillingProfile()).companyName).toBe("Lovelace Builders Ltd")
        expect((yield* bob.api.billing.getBillingProfile()).companyName).toBe("Bob Ltd")
      })
    )
  })

  describe("the mandate, from setup through the sandbox's hosted page to cancellation", () => {
    it.effect("sets up, completes, activates, cancels, and can start again", () =>
      Effect.gen(function* () {
        const { api, key } = yield* signUp("mandate")
        expect((yield* raw(key, "GET", "/me/billing/mandate")).status).toBe(404)
        yield* api.billing.updateBillingProfile({ payload: address })
        const setup = yield* api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
        expect(setup.redirectFlowId).toMatch(/^BRQ[0-9A-Z]{10}$/)
        expect(setup.redirectUrl).toMatch(/\/sandbox\/gocardless\/flow\/BRF[0-9A-Z]{10}$/)
        expect(setup.sessionToken.length).toBeGreaterThanOrEqual(32)
        expect((yield* api.billing.getBillingProfile()).mandateStatus).toBe("InProgress")
        expect(yield* api.billing.getMandate()).toMatchObject({ status: "InProgress", reference: null })
        const again = yield* raw(key, "POST", "/me/billing/mandate-setups", { successRedirectUrl: SUCCESS_URL })
        expect(again.status).toBe(409)

        const complete = { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
        const early = yield* raw(key, "PUT", "/me/billing/mandate", complete)
        expect(early.status).toBe(400)
        expect(early.body?.detail).toMatch(/has not finished/)

        const wrongBank = yield* postBankDetails(setup.redirectUrl, { ...goodBank, account_number: "12345678" })
        expect(wrongBank.status).toBe(200)
        expect(wrongBank.html).toMatch(/role="alert"/)
        expect((yield* raw(key, "PUT", "/me/billing/mandate", complete)).status).toBe(400)
        const back = yield* postBankDetails(setup.redirectUrl, goodBank)
        expect(back.status).toBe(303)
        const location = new URL(back.location ?? "")
        expect(`${location.origin}${location.pathname}`).toBe("https://app.cisbook.example/billing/done")
        expect(location.searchParams.get("from")).toBe("setup")
        expect(location.searchParams.get("redirect_flow_id")).toBe(setup.redirectFlowId)

        const wrongToken = yield* raw(key, "PUT", "/me/billing/mandate", { ...complete, sessionToken: "sess_guess" })
        expect(wrongToken.status).toBe(400)
        const mandate = yield* api.billing.completeMandateSetup({ payload: complete })
        expect(mandate).toMatchObject({
          status: "InProgress",
          accountHolderName: "Ada Lovelace",
          bankName: "BARCLAYS BANK PLC",
          accountNumberEnding: "11"
        })
        expect(mandate.reference).toMatch(/^MD[0-9A-Z]{10}$/)
        expect(mandate.nextPossibleChargeDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        // Completing again answers the same mandate.
        expect((yield* api.billing.completeMandateSetup({ payload: complete })).reference).toBe(mandate.reference)

        expect((yield* simulate("mandate_activated", mandate.reference ?? "")).status).toBe(200)
        expect((yield* api.billing.getMandate()).status).toBe("Active")
        expect((yield* api.billing.getBillingProfile()).mandateStatus).toBe("Active")
        expect(
          (yield* raw(key, "POST", "/me/billing/mandate-setups", { successRedirectUrl: SUCCESS_URL })).status
        ).toBe(409)

        yield* api.billing.cancelMandate()
        expect(yield* api.billing.getMandate()).toMatchObject({ status: "Cancelled", reference: mandate.reference })
        const provider = yield* raw(undefined, "GET", `/sandbox/gocardless/mandates/${mandate.reference}`)
        expect(provider.body?.mandates.status).toBe("cancelled")
        expect((yield* raw(key, "DELETE", "/me/billing/mandate")).status).toBe(404)
        const next = yield* api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
        expect(next.redirectFlowId).not.toBe(setup.redirectFlowId)
      })
    )

    it.effect("a failed mandate shows Failed and no longer blocks a new setup", () =>
      Effect.gen(function* () {
        const { api, setup } = yield* startedSetup
        yield* postBankDetails(setup.redirectUrl, goodBank)
        const mandate = yield* api.billing.completeMandateSetup({
          payload: { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
        })
        yield* simulate("mandate_failed", mandate.reference ?? "")
        expect((yield* api.billing.getMandate()).status).toBe("Failed")
        yield* api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
      })
    )

    it.effect("only the caller's own flow can be completed; DELETE with only a flow is 404", () =>
      Effect.gen(function* () {
        const { setup } = yield* startedSetup
        const other = yield* signUp("other")
        yield* postBankDetails(setup.redirectUrl, goodBank)
        const stolen = yield* raw(other.key, "PUT", "/me/billing/mandate", {
          redirectFlowId: setup.redirectFlowId,
          sessionToken: setup.sessionToken
        })
        expect(stolen.status).toBe(400)
        expect((yield* raw(other.key, "DELETE", "/me/billing/mandate")).status).toBe(404)
        const mine = yield* startedSetup
        expect((yield* raw(mine.key, "DELETE", "/me/billing/mandate")).status).toBe(404)
      })
    )

    it.effect("a provider refusal is 400 with the provider's message, and reserves nothing", () =>
      Effect.gen(function* () {
        const { api, key } = yield* signUp("refused")
        yield* api.billing.updateBillingProfile({ payload: { ...address, billingEmail: "refuse-7@example.com" } })
        const res = yield* raw(key, "POST", "/me/billing/mandate-setups", { successRedirectUrl: SUCCESS_URL })
        expect(res.status).toBe(400)
        expect(res.body?.detail).toMatch(/refused.*prefilled_customer\.email/)
        expect((yield* api.billing.getBillingProfile()).mandateStatus).toBe("NotStarted")
        yield* api.billing.updateBillingProfile({ payload: address })
        yield* api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
      })
    )

    it.effect("a setup request with a bad URL is 400 naming successRedirectUrl", () =>
      Effect.gen(function* () {
        const { key } = yield* signUp("badurl")
        const res = yield* raw(key, "POST", "/me/billing/mandate-setups", { successRedirectUrl: "ftp://x/y" })
        expect(res.status).toBe(400)
        expect(Object.keys(res.body?.errors ?? {})).toEqual(["successRedirectUrl"])
      })
    )

    it.effect("a caller without an email address and without a profile cannot start a setup (400)", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const token = yield* Effect.promise(() => idp.sign({ sub: `sub-noemail-${uniqueTenantCode()}` }))
        const api = yield* client({ accessToken: token })
        const refused = yield* Effect.flip(
          api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
        )
        expect(refused).toMatchObject({
          _tag: "Refused",
          detail: expect.stringMatching(/email address.*billing profile first\. \(PUT \/me\/billing\/profile\)$/)
        })
        // With a billing email in the profile, the same caller can.
        yield* api.billing.updateBillingProfile({ payload: address })
        yield* api.billing.createMandateSetup({ payload: { successRedirectUrl: SUCCESS_URL } })
      })
    )

    it.effect("20 racing setups by one user give one 201 and nineteen 409", () =>
      Effect.gen(function* () {
        const { key } = yield* signUp("racer")
        const statuses = yield* Effect.all(
          Array.from({ length: 20 }, () =>
            raw(key, "POST", "/me/billing/mandate-setups", { successRedirectUrl: SUCCESS_URL }).pipe(
              Effect.map((res) => res.status)
            )
          ),
          { concurrency: "unbounded" }
        )
        expect(statuses.filter((s) => s === 201)).toHaveLength(1)
        expect(statuses.filter((s) => s === 409)).toHaveLength(19)
      })
    )

    it.effect("two completions at once answer the same mandate, never a 500", () =>
      Effect.gen(function* () {
        const { key, setup } = yield* startedSetup
        expect((yield* postBankDetails(setup.redirectUrl, goodBank)).status).toBe(303)
        const complete = { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
        const answers = yield* Effect.all(
          Array.from({ length: 4 }, () => raw(key, "PUT", "/me/billing/mandate", complete)),
          { concurrency: "unbounded" }
        )
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
        const references = new Set(answers.map((answer) => answer.body?.reference))
        expect(references.size).toBe(1)
        expect([...references][0]).toMatch(/^MD/)
      })
    )

    it.effect("the hosted page of an unknown flow says so (404)", () =>
      Effect.gen(function* () {
        const res = yield* Effect.flatMap(HttpClient.HttpClient, (http) =>
          http.execute(HttpClientRequest.get("/sandbox/gocardless/flow/BRF0000NOPE00"))
        )
        expect(res.status).toBe(404)
        expect(yield* res.text).toMatch(/no such direct debit setup/)
      })
    )
  })

  describe("payments on a mandate, through the same adapter against the sandbox", () => {
    it.effect(
      "creates idempotently, checks the charge date, retries a failed one, and cancels pending ones with the mandate",
      () =>
        Effect.gen(function* () {
          const { api, setup } = yield* startedSetup
          yield* postBankDetails(setup.redirectUrl, goodBank)
          const mandate = yield* api.billing.completeMandateSetup({
            payload: { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
          })
          const reference = mandate.reference ?? ""
          const provider = yield* DirectDebit
          const request = {
            amount: 1200,
            currency: "GBP" as const,
            mandateId: reference,
            description: "CB-000001",
            chargeDate: null,
            invoice: { id: "0f9d5a4e-5b1a-4c55-9d0e-000000000001", number: "CB-000001" }
          }
          const first = yield* provider.createPayment(request, `invoice-${reference}`)
          expect(first).toMatchObject({
            status: "pending_submission",
            amount: 1200,
            chargeDate: mandate.nextPossibleChargeDate
          })
          expect((yield* provider.createPayment(request, `invoice-${reference}`)).id).toBe(first.id)
          const early = yield* Effect.flip(
            provider.createPayment({ ...request, chargeDate: "2000-01-01" }, "too-early")
          )
          expect(early).toMatchObject({
            reason: "validation_failed",
            message: expect.stringMatching(/^charge_date must be on or after/)
          })

          const second = yield* provider.createPayment({ ...request, amount: 500 }, `second-${reference}`)
          // The mandate's payments listed a page of one at a time, following the sandbox's cursors.
          const listed = yield* Effect.flatMap(DirectDebit, (onePerPage) => onePerPage.listPayments(reference)).pipe(
            Effect.provide(sandboxDirectDebit({ pageLimit: 1 }))
          )
          expect(listed.map((p) => [p.id, p.amount, p.mandateId]).sort()).toEqual(
            [
              [first.id, 1200, reference],
              [second.id, 500, reference]
            ].sort()
          )
          // Not failed: GoCardless refuses (retry_failed), and the adapter answers the payment as it is.
          expect(yield* provider.retryPayment(second.id)).toMatchObject({ id: second.id, status: "pending_submission" })
          expect((yield* simulate("payment_failed", second.id)).status).toBe(200)
          expect((yield* provider.retryPayment(second.id)).status).toBe("pending_submission")
          yield* simulate("payment_paid_out", second.id)
          expect((yield* provider.getPayment(second.id)).status).toBe("paid_out")

          yield* api.billing.cancelMandate()
          expect((yield* provider.getPayment(first.id)).status).toBe("cancelled")
          expect((yield* provider.getPayment(second.id)).status).toBe("paid_out")
          const inactive = yield* Effect.flip(provider.createPayment(request, "after-cancel"))
          expect(inactive.reason).toBe("mandate_is_inactive")
        })
    )

    it.effect("answers GoCardless's error shape for an unknown resource and a reused key", () =>
      Effect.gen(function* () {
        const unknown = yield* raw(undefined, "GET", "/sandbox/gocardless/payments/PM0000NOPE00")
        expect(unknown.status).toBe(404)
        expect(unknown.body?.error).toMatchObject({
          type: "invalid_api_usage",
          code: 404,
          errors: [{ reason: "resource_not_found" }]
        })
        const request = { billing_requests: { mandate_request: { scheme: "bacs", currency: "GBP" } } }
        const post = (key: string) =>
          Effect.flatMap(HttpClient.HttpClient, (http) =>
            http.execute(
              HttpClientRequest.post("/sandbox/gocardless/billing_requests").pipe(
                HttpClientRequest.setHeader("Idempotency-Key", key),
                HttpClientRequest.bodyUnsafeJson(request)
              )
            )
          ).pipe(Effect.flatMap((res) => Effect.map(res.json, (body) => ({ status: res.status, body: body as any }))))
        const key = `key-${uniqueTenantCode()}`
        const created = yield* post(key)
        expect(created.status).toBe(201)
        const again = yield* post(key)
        expect(again.status).toBe(409)
        expect(again.body.error.errors[0]).toMatchObject({
          reason: "idempotent_creation_conflict",
          links: { conflicting_resource_id: created.body.billing_requests.id }
        })
      })
    )
  })
})
