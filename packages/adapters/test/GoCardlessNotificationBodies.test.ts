import { GoCardlessNotification, providerEventBatchOf } from "@cisbook/adapters/gocardless/GoCardlessNotification"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { draftInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { BillingAddress } from "@cisbook/core/billing/mandates/BillingAddress"
import { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEventHandling"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { Email } from "@cisbook/core/Email"
import { BillingInvoiceId, MandateId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { Users } from "@cisbook/core/users/Users"
import { DirectDebitControl } from "@cisbook/testkit/DirectDebitFake"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Ref, Schema } from "effect"
import { type Json, published, publishedText } from "./PublishedGoCardless.js"

/** Every use case over in-memory ports: the provider's events received and handled as the worker does. */
const app = UseCasesLive.pipe(Layer.provideMerge(MemoryPorts), Layer.provideMerge(identityVerifierFake({})))

const decode = Schema.decodeUnknownSync(Schema.parseJson(GoCardlessNotification))

/** `events.json`'s published event (GoCardless's Python client): a `mandates` event with every field. */
const publishedEvent = (published("gocardless-pro-python", "events.json")["get"] as { readonly body: Json }).body[
  "events"
] as Json

/**
 * A webhook of that one event with only its `resource_type`, `action` and `links` set: GoCardless
 * publishes no body of a charge-back or a replaced mandate (see the fixtures' README).
 */
const derived = (resourceType: string, action: string, links: Readonly<Record<string, string>>) =>
  JSON.stringify({ events: [{ ...publishedEvent, resource_type: resourceType, action, links }] })

/** A user on mandate MD123 (Active), owing invoice CB-... collected by `payment` (Pending), both held by the provider. */
const customer = (payment: string) =>
  Effect.gen(function* () {
    const user = yield* (yield* Users).create({ email: Email.make("ada@example.com"), name: "Ada Lovelace" })
    const now = new Date()
    yield* (yield* BillingProfileRepo).put(
      user.id,
      new BillingAddress({
        companyName: "Lovelace Builders Ltd",
        billingEmail: Email.make("accounts@lovelace.example"),
        addressLine1: "1 Analytical Row",
        addressLine2: null,
        addressLine3: null,
        postcode: "NW1 6XE",
        country: "GB"
      }),
      now
    )
    const held = (id: string) => ({
      id,
      status: "active",
      nextPossibleChargeDate: "2026-12-03",
      customerBankAccountId: "BA123",
      newMandateId: null
    })
    yield* Ref.update((yield* DirectDebitControl).state, (s) => ({
      ...s,
      mandates: new Map(s.mandates).set("MD123", held("MD123")).set("MD124", held("MD124")),
      payments: new Map(s.payments).set(payment, {
        id: payment,
        status: "pending_submission",
        amount: 288,
        chargeDate: "2026-12-03",
        mandateId: "MD123"
      })
    }))
    yield* (yield* MandateRepo).reserve(
      new Mandate({
        id: MandateId.make(crypto.randomUUID()),
        userId: user.id,
        status: "Active",
        sessionToken: "sess_webhooks",
        redirectFlowId: "BRQ123",
        redirectUrl: "https://pay.example/flow/BRF123",
        reference: "MD123",
        accountHolderName: "Billie Jean",
        bankName: "BARCLAYS BANK PLC",
        accountNumberEnding: "1234",
        nextPossibleChargeDate: "2026-12-03",
        createdAt: now,
        expiresAt: now,
        completedAt: now
      }),
      now
    )
    const invoices = yield* BillingInvoiceRepo
    const invoice = yield* invoices.insert(
      draftInvoice(
        { id: BillingInvoiceId.make(crypto.randomUUID()), userId: user.id, issueDate: "2026-11-01" },
        [
          {
            returnId: MonthlyReturnId.make(crypto.randomUUID()),
            tenantId: TenantId.make(crypto.randomUUID()),
            tenant: "lovelace",
            tenantName: "Lovelace Builders Ltd",
            periodEnd: "2026-10-05",
            subcontractors: 2
          }
        ],
        100
      ),
      now
    )
    yield* invoices.recordCollection(
      user.id,
      invoice.id,
      { paymentStatus: "Pending", paymentReference: payment, mandateReference: "MD123" },
      true
    )
    const state = Effect.all({
      mandate: Effect.map((yield* MandateRepo).latest(user.id), Option.getOrThrow),
      invoice: Effect.map(invoices.find(user.id, invoice.id), (found) => Option.getOrThrow(found).invoice),
      notices: Effect.map((yield* MailOutbox).list({ status: null, limit: 50 }), (all) => all.map((m) => m.subject))
    })
    return { user, invoice, state }
  })

/** The webhook's body decoded as the endpoint decodes it, its events received and handled as the worker does. */
const handled = (body: string) =>
  Effect.gen(function* () {
    yield* (yield* ProviderEventReceiving).receive(providerEventBatchOf(decode(body)))
    const work = yield* ProviderEventHandling
    const claimed = yield* work.claim(50, Duration.minutes(1))
    yield* work.record(yield* Effect.forEach(claimed, work.attempt))
    return (yield* (yield* ProviderEventReceiving).list(50)).map((e) => [e.resourceType, e.action, e.handled])
  })

describe("GoCardless's published webhook bodies, received and handled", () => {
  it.effect(
    "webhook_body.json: both events read as sent; a mandate and a subscription the service does not hold, ignored",
    () =>
      Effect.gen(function* () {
        const body = publishedText("gocardless-pro-python", "webhook_body.json")
        expect(providerEventBatchOf(decode(body))).toMatchObject({
          notificationId: null,
          events: [
            { id: "EV00BD05S5VM2T", resourceType: "subscriptions", action: "created", resourceId: "SB0003JJQ2MR06" },
            {
              id: "EV00BD05TB8K63",
              resourceType: "mandates",
              action: "created",
              resourceId: "MD000AMA19XGEC",
              createdAt: new Date("2018-07-05T09:13:56.893Z"),
              details: { origin: "api", cause: "mandate_created", description: "Mandate created via the API." }
            }
          ]
        })
        expect(yield* handled(body)).toEqual([
          ["mandates", "created", "ignored"],
          ["subscriptions", "created", "ignored"]
        ])
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "a payment failed (the Go client's sandbox webhook): the invoice Failed, the user told GoCardless's reason",
    () =>
      Effect.gen(function* () {
        const { state } = yield* customer("index_ID_123")
        expect(yield* handled(publishedText("gocardless-pro-go", "webhook_request.json"))).toEqual([
          ["payments", "failed", "applied"]
        ])
        const { invoice, notices } = yield* state
        expect(invoice.paymentStatus).toBe("Failed")
        expect(notices).toEqual([`Payment of invoice ${invoice.number} failed`])
        const [mail] = yield* (yield* MailOutbox).claimDue(new Date(8.64e15), new Date(8.64e15), 1)
        expect(mail?.mail.body).toContain(
          "The reason given: GoCardless has marked this payment as failed in sandbox to enable testing of payment failure webhooks."
        )
      }).pipe(Effect.provide(app))
  )

  it.effect("a payment charged back: the invoice Failed and the user told", () =>
    Effect.gen(function* () {
      const { state } = yield* customer("PM123")
      expect(yield* handled(derived("payments", "charged_back", { payment: "PM123" }))).toEqual([
        ["payments", "charged_back", "applied"]
      ])
      const { invoice, notices } = yield* state
      expect(invoice.paymentStatus).toBe("Failed")
      expect(notices).toEqual([`Payment of invoice ${invoice.number} charged back`])
    }).pipe(Effect.provide(app))
  )

  it.effect("a payment failed that GoCardless will retry (will_attempt_retry, Success+): Pending, no notice", () =>
    Effect.gen(function* () {
      const { state } = yield* customer("PM123")
      expect(yield* handled(derived("payments", "failed", { payment: "PM123" }))).toEqual([
        ["payments", "failed", "duplicate"]
      ])
      const { invoice, notices } = yield* state
      expect(invoice.paymentStatus).toBe("Pending")
      expect(notices).toEqual([])
    }).pipe(Effect.provide(app))
  )

  it.effect("a mandate replaced: the user's mandate is the new one, read from the provider", () =>
    Effect.gen(function* () {
      const { state } = yield* customer("PM123")
      expect(yield* handled(derived("mandates", "replaced", { mandate: "MD123", new_mandate: "MD124" }))).toEqual([
        ["mandates", "replaced", "applied"]
      ])
      expect((yield* state).mandate).toMatchObject({ reference: "MD124", status: "Active" })
    }).pipe(Effect.provide(app))
  )

  it.effect("events.json's event as published (a mandate cancelled): the mandate Cancelled and the user told", () =>
    Effect.gen(function* () {
      const { state } = yield* customer("PM123")
      expect(yield* handled(JSON.stringify({ events: [publishedEvent] }))).toEqual([
        ["mandates", "cancelled", "applied"]
      ])
      const { mandate, notices } = yield* state
      expect(mandate.status).toBe("Cancelled")
      expect(notices).toHaveLength(1)
    }).pipe(Effect.provide(app))
  )
})
