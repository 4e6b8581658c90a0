import { draftInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { BillingInvoiceId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { PaymentFreshness } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { addDays, ukCalendarDate } from "@cisbook/core/CalendarDate"
import { pdfText } from "@cisbook/testkit/PdfText"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { acceptedJuneReturn } from "./AcceptedReturn.js"
import { contractorTenant as contractor } from "./ContractorTenant.js"
import { e2e, raw, signUp, sqlTestPorts } from "./E2E.js"
import { eventually } from "./WorkerTestApp.js"

const billingRun = (date: string) => Effect.flatMap(BillingRun, (run) => run.run(date))

/** The UK day on which the payment's invoice failed, as stored. */
const failedOn = (payment: string) =>
  Effect.flatMap(BillingInvoiceRepo, (repo) => repo.failedInvoices).pipe(
    Effect.map((failed) => {
      const failedAt = failed.find((i) => i.paymentReference === payment)?.failedAt
      assert(failedAt !== undefined && failedAt !== null, `no failure recorded for ${payment}`)
      return ukCalendarDate(failedAt)
    })
  )

const simulate = (scenario: string, resource: string) =>
  raw(undefined, "POST", `/sandbox/gocardless/scenario_simulators/${scenario}/actions/run`, {
    data: { links: { resource } }
  })

/** The hosted page's form, posted with the sandbox's good bank details, as a browser posts it. */
const finishHostedPage = (redirectUrl: string) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(
      HttpClientRequest.post(new URL(redirectUrl).pathname).pipe(
        HttpClientRequest.bodyUrlParams({
          account_holder_name: "Ada Lovelace",
          sort_code: "20-00-00",
          account_number: "55779911"
        })
      )
    )
  ).pipe(Effect.map((response) => response.status))

const pdfOf = (key: string, id: string) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(
      HttpClientRequest.get(`/me/billing/invoices/${id}/pdf`).pipe(HttpClientRequest.setHeader("x-api-key", key))
    )
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.arrayBuffer, (body) => ({
        status: response.status,
        contentType: response.headers["content-type"],
        disposition: response.headers["content-disposition"],
        body: new Uint8Array(body)
      }))
    )
  )

/**
 * The server with GoCardless's Success+ (intelligent retries): its payments carry retry_if_possible.
 * No worker handles the sandbox's events here, so these tests follow a payment's moves by listing
 * at once: every listing asks the provider (the minute a read stands is tested in core's
 * PaymentFreshness.test.ts).
 */
const SuccessPlus = e2e(sqlTestPorts(undefined, undefined, { successPlus: true })).pipe(
  Layer.provide(Layer.succeed(PaymentFreshness, Duration.zero))
)

layer(SuccessPlus, { excludeTestServices: true, timeout: "120 seconds" })("billing invoices over HTTP", (it) => {
  it.effect(
    "monthly return → accepted → usage → billing run → invoice and PDF → mandate completed → paid out → Paid",
    () =>
      Effect.gen(function* () {
        const owner = yield* contractor("billed")
        const returnId = yield* acceptedJuneReturn(owner)

        const usage = yield* raw(owner.key, "GET", "/me/billing/usage")
        expect(usage.status).toBe(200)
        expect(usage.body).toEqual([
          {
            returnId,
            tenant: owner.tenant,
            tenantName: "Lovelace Builders Ltd",
            periodEnd: "2026-06-05",
            acceptedAt: expect.stringMatching(/Z$/),
            subcontractors: [
              { contactCode: "JOHNSMIT", name: "John Smith Groundworks" },
              { contactCode: "ACMEROOF", name: "Acme Roofing Ltd" }
            ]
          }
        ])
        expect(yield* raw(owner.key, "GET", "/me/billing/invoices")).toMatchObject({ status: 200, body: [] })

        yield* billingRun("2026-07-01")
        expect(yield* owner.api.billing.getBillingUsage()).toEqual([])
        const listed = yield* raw(owner.key, "GET", "/me/billing/invoices")
        expect(listed.status).toBe(200)
        const [summary] = listed.body as Array<Record<string, unknown>>
        assert(summary !== undefined)
        expect(summary).toEqual({
          id: expect.any(String),
          number: expect.stringMatching(/^CB-\d{6}$/),
          issueDate: "2026-07-01",
          periodStart: "2026-06-05",
          periodEnd: "2026-06-05",
          currency: "GBP",
          subtotal: 2,
          vat: 0.4,
          total: 2.4,
          paymentStatus: "WaitingForMandate",
          paymentReference: null,
          hasPdf: true
        })
        const id = String(summary.id)
        const detail = yield* raw(owner.key, "GET", `/me/billing/invoices/${id}`)
        expect(detail.body).toEqual({
          ...summary,
          lines: [
            {
              description: "CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)",
              tenant: owner.tenant,
              returnId,
              quantity: 2,
              unitPrice: 1,
              amount: 2
            }
          ]
        })
        // The SDK speaks pence.
        expect(yield* owner.api.billing.getBillingInvoice({ path: { invoice: id } })).toMatchObject({
          total: 240,
          lines: [{ quantity: 2, unitPrice: 100, amount: 200 }]
        })
        const returned = yield* owner.api.monthlyReturns.getMonthlyReturn({
          path: { tenant: owner.tenant, id: returnId }
        })
        expect(returned.invoiced).toBe(true)

        const pdf = yield* pdfOf(owner.key, id)
        expect(pdf.status).toBe(200)
        expect(pdf.contentType).toBe("application/pdf")
        expect(pdf.disposition).toBe(`attachment; filename="${summary.number}.pdf"`)
        const text = (yield* pdfText(pdf.body)).replace(/\s+/g, " ")
        expect(text).toContain(String(summary.number))
        expect(text).toContain("Total due £2.40")
        expect(text).toContain("Waiting for a direct debit mandate")
        const viaSdk = yield* owner.api.billing.getBillingInvoicePdf({ path: { invoice: id } })
        expect(viaSdk).toEqual(pdf.body)

        // A mandate completed through the sandbox's hosted page puts the waiting invoice forward.
        const setup = yield* owner.api.billing.createMandateSetup({
          payload: { successRedirectUrl: "https://app.cisbook.example/billing/done" }
        })
        expect(yield* finishHostedPage(setup.redirectUrl)).toBe(303)
        const mandate = yield* owner.api.billing.completeMandateSetup({
          payload: { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
        })
        const [collecting] = yield* owner.api.billing.listBillingInvoices()
        expect(collecting).toMatchObject({
          id,
          paymentStatus: "Pending",
          paymentReference: expect.stringMatching(/^PM/)
        })
        expect(collecting?.lines).toBeUndefined()

        yield* simulate("mandate_activated", mandate.reference ?? "")
        expect((yield* simulate("payment_paid_out", collecting?.paymentReference ?? "")).status).toBe(200)
        const [paid] = yield* owner.api.billing.listBillingInvoices()
        expect(paid).toMatchObject({ id, paymentStatus: "Paid", paymentReference: collecting?.paymentReference })

        // Run again: nothing is billed twice.
        yield* billingRun("2026-07-02")
        expect((yield* owner.api.billing.listBillingInvoices()).map((i) => i.id)).toEqual([id])
      })
  )

  it.effect(
    "a payment GoCardless will retry stays Pending; one that failed is collected again by the billing run 3 days later, on the same payment",
    () =>
      Effect.gen(function* () {
        const owner = yield* contractor("retried")
        yield* acceptedJuneReturn(owner)
        yield* billingRun("2026-07-01")
        const setup = yield* owner.api.billing.createMandateSetup({
          payload: { successRedirectUrl: "https://app.cisbook.example/billing/done" }
        })
        expect(yield* finishHostedPage(setup.redirectUrl)).toBe(303)
        const mandate = yield* owner.api.billing.completeMandateSetup({
          payload: { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
        })
        yield* simulate("mandate_activated", mandate.reference ?? "")
        const [collecting] = yield* owner.api.billing.listBillingInvoices()
        const payment = collecting?.paymentReference ?? ""
        expect(payment).toMatch(/^PM/)
        const invoice = () =>
          Effect.map(owner.api.billing.listBillingInvoices(), ([one]) => ({
            paymentStatus: one?.paymentStatus,
            paymentReference: one?.paymentReference
          }))

        // GoCardless fails it but will retry it itself: back to pending_submission, Pending here.
        expect((yield* simulate("payment_failed_will_retry", payment)).status).toBe(200)
        expect(yield* invoice()).toEqual({ paymentStatus: "Pending", paymentReference: payment })
        // Then it fails for good: Failed.
        expect((yield* simulate("payment_failed", payment)).status).toBe(200)
        expect(yield* eventually(invoice(), (i) => i.paymentStatus === "Failed")).toEqual({
          paymentStatus: "Failed",
          paymentReference: payment
        })

        // A run dated two days after the failure leaves it Failed: the retry is not due yet.
        const failed = yield* failedOn(payment)
        yield* billingRun(addDays(failed, 2))
        expect(yield* invoice()).toEqual({ paymentStatus: "Failed", paymentReference: payment })
        // The run dated three days on retries the same payment with GoCardless (actions/retry): Pending again.
        yield* billingRun(addDays(failed, 3))
        expect(yield* invoice()).toEqual({ paymentStatus: "Pending", paymentReference: payment })
        expect((yield* simulate("payment_paid_out", payment)).status).toBe(200)
        expect(yield* eventually(invoice(), (i) => i.paymentStatus === "Paid")).toEqual({
          paymentStatus: "Paid",
          paymentReference: payment
        })
      })
  )

  it.effect(
    "another user's invoice and PDF are 404, as are an unknown or malformed id and an invoice without a PDF",
    () =>
      Effect.gen(function* () {
        const owner = yield* contractor("owner")
        yield* acceptedJuneReturn(owner)
        yield* billingRun("2026-07-01")
        const [invoice] = yield* owner.api.billing.listBillingInvoices()
        assert(invoice !== undefined)
        const stranger = yield* signUp("stranger")
        for (const path of [`/me/billing/invoices/${invoice.id}`, `/me/billing/invoices/${invoice.id}/pdf`]) {
          const res = yield* raw(stranger.key, "GET", path)
          expect(res.status).toBe(404)
          expect(res.contentType).toMatch(/^application\/problem\+json/)
          expect(res.body?.detail).not.toContain(invoice.number)
        }
        expect(yield* stranger.api.billing.listBillingInvoices()).toEqual([])
        // The Promise client: the owner's invoice and PDF; the stranger's attempt rejects with NotFound.
        const server = yield* HttpServer.HttpServer
        assert(server.address._tag === "TcpAddress")
        const baseUrl = `http://127.0.0.1:${server.address.port}`
        const asOwner = yield* Effect.promise(() =>
          createPromiseClient({ baseUrl, credentials: { apiKey: owner.key } })
        )
        const asStranger = yield* Effect.promise(() =>
          createPromiseClient({ baseUrl, credentials: { apiKey: stranger.key } })
        )
        expect(yield* Effect.promise(() => asOwner.billing.listBillingInvoices())).toMatchObject([{ id: invoice.id }])
        const pdf = yield* Effect.promise(() => asOwner.billing.getBillingInvoicePdf({ path: { invoice: invoice.id } }))
        expect(yield* pdfText(pdf)).toContain(invoice.number)
        const refused = yield* Effect.promise(() =>
          asStranger.billing.getBillingInvoicePdf({ path: { invoice: invoice.id } }).then(
            () => undefined,
            (error: unknown) => error
          )
        )
        expect(refused).toMatchObject({ _tag: "NotFound" })
        expect(yield* stranger.api.billing.getBillingUsage()).toEqual([])
        for (const path of [
          "/me/billing/invoices/not-a-uuid",
          "/me/billing/invoices/not-a-uuid/pdf",
          "/me/billing/invoices/00000000-0000-4000-8000-000000000000"
        ]) {
          expect((yield* raw(owner.key, "GET", path)).status).toBe(404)
        }
        // An invoice a run has inserted but not finished yet has no PDF.
        const draft = draftInvoice(
          { id: BillingInvoiceId.make(crypto.randomUUID()), userId: owner.user.id, issueDate: "2026-07-03" },
          [
            {
              returnId: MonthlyReturnId.make(crypto.randomUUID()),
              tenantId: TenantId.make(crypto.randomUUID()),
              tenant: owner.tenant,
              tenantName: "Lovelace Builders Ltd",
              periodEnd: "2026-06-05",
              subcontractors: 1
            }
          ],
          100
        )
        const unfinished = yield* (yield* BillingInvoiceRepo).insert(draft, new Date())
        expect(yield* owner.api.billing.getBillingInvoice({ path: { invoice: unfinished.id } })).toMatchObject({
          hasPdf: false
        })
        const noPdf = yield* raw(owner.key, "GET", `/me/billing/invoices/${unfinished.id}/pdf`)
        expect(noPdf.status).toBe(404)
        expect(noPdf.body?.detail).toBe(`Invoice ${unfinished.number} has no PDF yet; the billing run renders it.`)
        expect((yield* raw(undefined, "GET", "/me/billing/invoices")).status).toBe(401)
        expect((yield* raw(undefined, "GET", "/me/billing/usage")).status).toBe(401)
      })
  )
})
