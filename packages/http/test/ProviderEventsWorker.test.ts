import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { BillingAddress } from "@cisbook/core/billing/mandates/BillingAddress"
import { draftInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import type { InvoicePaymentStatus } from "@cisbook/core/billing/billinginvoices/InvoicePaymentStatus"
import { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import type { StoredMandateStatus } from "@cisbook/core/billing/mandates/MandateStatus"
import type { ProviderEvent } from "@cisbook/core/billing/providerevents/ProviderEvent"
import type { Email } from "@cisbook/core/Email"
import { BillingInvoiceId, MandateId, MonthlyReturnId, TenantId, type UserId } from "@cisbook/core/Ids"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEventHandling"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { Users } from "@cisbook/core/users/Users"
import { DirectDebitControl } from "@cisbook/testkit/DirectDebitFake"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { providerEventsWorker } from "../src/workers/ProviderEventsWorker.js"
import { appOver, eventually } from "./WorkerTestApp.js"
import { asUser } from "@cisbook/core/users/ActingAs"

let counter = 0
const unique = (stem: string) => `${stem}-${process.pid}-${Date.now().toString(36)}-${++counter}`

/**
 * A user with a billing address, a mandate the provider holds (stored `mandateStatus`) and one
 * invoice of £2.40 whose payment the provider holds (stored `paymentStatus`).
 */
const aCustomer = (mandateStatus: StoredMandateStatus = "Active", paymentStatus: InvoicePaymentStatus = "Pending") =>
  Effect.gen(function* () {
    const n = unique("c")
    const user = yield* (yield* Users).create({ email: `${n}@example.com` as Email, name: "Ada" })
    const billingEmail = `accounts.${n}@example.com` as Email
    const now = new Date()
    yield* (yield* BillingProfileRepo).put(
      user.id,
      new BillingAddress({
        companyName: "Lovelace Builders Ltd",
        billingEmail,
        addressLine1: "1 Analytical Row",
        addressLine2: null,
        addressLine3: null,
        postcode: "NW1 6XE",
        country: "GB"
      }),
      now
    )
    const provider = yield* DirectDebit
    const flow = yield* provider.startMandateSetup(
      {
        userId: user.id,
        successRedirectUrl: "https://app.example/back",
        prefilledCustomer: {
          givenName: null,
          familyName: null,
          companyName: null,
          email: billingEmail,
          addressLine1: null,
          addressLine2: null,
          addressLine3: null,
          postalCode: null,
          countryCode: null
        }
      },
      `flow-${n}`
    )
    yield* (yield* DirectDebitControl).finish(flow.id)
    const reference = yield* provider.completeMandateSetup(flow.id)
    const payment = yield* provider.createPayment(
      {
        amount: 240,
        currency: "GBP",
        mandateId: reference,
        description: "CB",
        chargeDate: null,
        invoice: { id: crypto.randomUUID(), number: `CB-${n}` }
      },
      `payment-${n}`
    )
    const mandate = new Mandate({
      id: MandateId.make(crypto.randomUUID()),
      userId: user.id,
      status: mandateStatus,
      sessionToken: n,
      redirectFlowId: flow.id,
      redirectUrl: flow.redirectUrl,
      reference,
      accountHolderName: "Ada Lovelace",
      bankName: null,
      accountNumberEnding: "11",
      nextPossibleChargeDate: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 1_800_000),
      completedAt: now
    })
    yield* (yield* MandateRepo).reserve(mandate, now)
    const invoices = yield* BillingInvoiceRepo
    const draft = draftInvoice(
      { id: BillingInvoiceId.make(crypto.randomUUID()), userId: user.id, issueDate: "2026-07-01" },
      [
        {
          returnId: MonthlyReturnId.make(crypto.randomUUID()),
          tenantId: TenantId.make(crypto.randomUUID()),
          tenant: "lovelace",
          tenantName: "Lovelace Builders Ltd",
          periodEnd: "2026-06-05",
          subcontractors: 2
        }
      ],
      100
    )
    const invoice = yield* invoices.insert(draft, now)
    yield* invoices.recordCollection(
      user.id,
      invoice.id,
      { paymentStatus, paymentReference: payment.id, mandateReference: reference },
      true
    )
    return { user, billingEmail, reference, payment: payment.id, invoice } as const
  })

let eventCounter = 0
/** A GoCardless event about the resource, `secondsAgo` before now. */
const event = (
  resourceType: "mandates" | "payments" | "billing_requests",
  action: string,
  resource: string,
  secondsAgo = 0
) => {
  const link = resourceType === "mandates" ? "mandate" : resourceType === "payments" ? "payment" : "billing_request"
  return {
    id: `EV${process.pid}${Date.now().toString(36)}${++eventCounter}`.toUpperCase(),
    createdAt: new Date(Date.now() - secondsAgo * 1000),
    resourceType,
    action,
    resourceId: resource,
    links: { [link]: resource },
    details: { origin: "bank", cause: action },
    metadata: {}
  } satisfies ProviderEvent
}

/** Receives the events as one webhook, then does what the worker does with every due one, one at a time. */
const receiveAndHandle = (...events: ReadonlyArray<ProviderEvent>) =>
  Effect.gen(function* () {
    yield* (yield* ProviderEventReceiving).receive({ notificationId: "WB1", events })
    const work = yield* ProviderEventHandling
    const claimed = yield* work.claim(500, Duration.minutes(1))
    const attempts = yield* Effect.forEach(claimed, work.attempt)
    yield* work.record(attempts)
    return yield* handledOf(events)
  })

/** How each event was handled, by id, as the inbox lists them. */
const handledOf = (events: ReadonlyArray<ProviderEvent>) =>
  Effect.gen(function* () {
    const listed = yield* (yield* ProviderEventReceiving).list(500)
    return events.map((e) => listed.find((l) => l.id === e.id)?.handled)
  })

const mandateStatus = (userId: UserId) =>
  Effect.map(
    Effect.flatMap(MandateRepo, (repo) => repo.latest(userId)),
    Option.map((m) => m.status)
  )

const paymentStatus = (userId: UserId) =>
  Effect.map(
    Effect.flatMap(BillingInvoiceRepo, (repo) => repo.list(userId)),
    (all) => all[0]?.paymentStatus
  )

/** The billing notices queued to `to`, with their text (leased here: no sender runs in these tests). */
const noticesTo = (to: string) =>
  Effect.gen(function* () {
    const outbox = yield* MailOutbox
    const listed = (yield* outbox.list({ status: null, limit: 500 })).filter((m) => m.to === to)
    const now = new Date()
    const claimed = yield* outbox.claimDue(now, new Date(now.getTime() + 60_000), 500)
    return listed.map((m) => {
      const mail = claimed.find((c) => c.mail.id === m.id)?.mail
      return { type: m.type, tenantId: m.tenantId, subject: m.subject, body: mail?.body ?? "" }
    })
  })

layer(appOver(EphemeralDatabase), { excludeTestServices: true, timeout: "60 seconds" })(
  "provider events worker",
  (it) => {
    it.effect("maps each mandate action to its status and keeps the others, ignored", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [StoredMandateStatus, string, StoredMandateStatus, string]> = [
          ["InProgress", "created", "InProgress", "duplicate"],
          ["InProgress", "submitted", "InProgress", "duplicate"],
          ["InProgress", "customer_approval_granted", "InProgress", "duplicate"],
          ["InProgress", "active", "Active", "applied"],
          ["Active", "reinstated", "Active", "duplicate"],
          ["Active", "failed", "Failed", "applied"],
          ["Active", "blocked", "Failed", "applied"],
          ["Active", "suspended_by_payer", "Failed", "applied"],
          ["Active", "cancelled", "Cancelled", "applied"],
          ["Active", "expired", "Expired", "applied"],
          ["Active", "consumed", "Expired", "applied"],
          // The bank details are read again from the provider.
          ["Active", "transferred", "InProgress", "applied"],
          ["Active", "customer_approval_skipped", "Active", "ignored"]
        ]
        for (const [from, action, to, handled] of cases) {
          const customer = yield* aCustomer(from)
          expect(yield* receiveAndHandle(event("mandates", action, customer.reference))).toEqual([handled])
          expect(yield* mandateStatus(customer.user.id)).toEqual(Option.some(to))
        }
      })
    )

    it.effect("a fulfilled billing request completes the setup the customer never came back to; once", () =>
      Effect.gen(function* () {
        const user = yield* (yield* Users).create({ email: `${unique("tab")}@example.com` as Email, name: "Ada" })
        const mandates = yield* Mandates
        const setup = yield* mandates.setup({ successRedirectUrl: "https://app.example/back" }).pipe(asUser(user))
        // Before the customer finished the page, nothing can come of it: tried again later.
        const early = event("billing_requests", "fulfilled", setup.redirectFlowId)
        expect(yield* receiveAndHandle(early)).toEqual(["pending"])
        yield* (yield* DirectDebitControl).finish(setup.redirectFlowId)
        const fulfilled = event("billing_requests", "fulfilled", setup.redirectFlowId)
        expect(yield* receiveAndHandle(fulfilled)).toEqual(["applied"])
        const stored = yield* (yield* MandateRepo).latest(user.id)
        const reference = Option.getOrThrow(stored).reference
        expect(reference).toMatch(/^MD/)
        expect(Option.getOrThrow(stored)).toMatchObject({ status: "InProgress", accountHolderName: "Ada Lovelace" })
        // The event again, and the browser coming back late: the same mandate.
        expect(yield* receiveAndHandle(event("billing_requests", "fulfilled", setup.redirectFlowId))).toEqual([
          "duplicate"
        ])
        const completed = yield* mandates
          .complete({
            redirectFlowId: setup.redirectFlowId,
            sessionToken: setup.sessionToken
          })
          .pipe(asUser(user))
        expect(completed.reference).toBe(reference)
      })
    )

    it.effect("a setup fulfilled after it expired here, while another mandate is live: the live one stays", () =>
      Effect.gen(function* () {
        const user = yield* (yield* Users).create({ email: `${unique("late")}@example.com` as Email, name: "Ada" })
        const repo = yield* MandateRepo
        const provider = yield* DirectDebit
        const now = new Date()
        const late = yield* provider.startMandateSetup(
          {
            userId: user.id,
            successRedirectUrl: "https://app.example/back",
            prefilledCustomer: {
              givenName: null,
              familyName: null,
              companyName: null,
              email: `${unique("late")}@example.com`,
              addressLine1: null,
              addressLine2: null,
              addressLine3: null,
              postalCode: null,
              countryCode: null
            }
          },
          unique("late-key")
        )
        const row = (status: StoredMandateStatus, redirectFlowId: string, reference: string | null) =>
          new Mandate({
            id: MandateId.make(crypto.randomUUID()),
            userId: user.id,
            status,
            sessionToken: unique("s"),
            redirectFlowId,
            redirectUrl: null,
            reference,
            accountHolderName: null,
            bankName: null,
            accountNumberEnding: null,
            nextPossibleChargeDate: null,
            createdAt: now,
            expiresAt: new Date(now.getTime() + 1_800_000),
            completedAt: null
          })
        yield* repo.reserve(row("Expired", late.id, null), now)
        const kept = row("Active", unique("BRQKEPT"), "MDKEPT")
        yield* repo.reserve(kept, now)
        yield* (yield* DirectDebitControl).finish(late.id)
        expect(yield* receiveAndHandle(event("billing_requests", "fulfilled", late.id))).toEqual(["applied"])
        expect(yield* repo.live(user.id)).toEqual(Option.some(kept))
        const ended = Option.getOrThrow(yield* repo.findBySetup(late.id))
        expect(ended.status).toBe("Cancelled")
        expect((yield* provider.getMandate(ended.reference ?? "")).status).toBe("cancelled")
      })
    )

    it.effect("a cancelled billing request ends the setup in progress Expired; a new one can start", () =>
      Effect.gen(function* () {
        const user = yield* (yield* Users).create({ email: `${unique("brq")}@example.com` as Email, name: "Ada" })
        const mandates = yield* Mandates
        const setup = yield* mandates.setup({ successRedirectUrl: "https://app.example/back" }).pipe(asUser(user))
        expect(yield* receiveAndHandle(event("billing_requests", "cancelled", setup.redirectFlowId))).toEqual([
          "applied"
        ])
        expect(yield* mandateStatus(user.id)).toEqual(Option.some("Expired"))
        expect(yield* receiveAndHandle(event("billing_requests", "cancelled", setup.redirectFlowId))).toEqual([
          "duplicate"
        ])
        const refused = yield* Effect.flip(
          mandates
            .complete({ redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken })
            .pipe(asUser(user))
        )
        expect(refused._tag).toBe("Refused")
        yield* mandates.setup({ successRedirectUrl: "https://app.example/back" }).pipe(asUser(user))
        expect(yield* mandateStatus(user.id)).toEqual(Option.some("InProgress"))
      })
    )

    it.effect("maps each payment action to the invoice's payment status", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [string, InvoicePaymentStatus]> = [
          ["confirmed", "Paid"],
          ["paid_out", "Paid"],
          ["chargeback_cancelled", "Paid"],
          ["failed", "Failed"],
          ["charged_back", "Failed"],
          ["late_failure_settled", "Failed"],
          ["customer_approval_denied", "Failed"],
          ["cancelled", "Cancelled"]
        ]
        for (const [action, to] of cases) {
          const customer = yield* aCustomer("Active", "Pending")
          expect(yield* receiveAndHandle(event("payments", action, customer.payment))).toEqual(["applied"])
          expect(yield* paymentStatus(customer.user.id)).toBe(to)
        }
        for (const action of ["submitted", "resubmission_requested"]) {
          const customer = yield* aCustomer("Active", "Pending")
          expect(yield* receiveAndHandle(event("payments", action, customer.payment))).toEqual(["duplicate"])
          expect(yield* paymentStatus(customer.user.id)).toBe("Pending")
        }
        const customer = yield* aCustomer("Active", "Pending")
        expect(yield* receiveAndHandle(event("payments", "created", customer.payment))).toEqual(["ignored"])
        // GoCardless will retry it itself: Pending still, and no one is told.
        const retrying = yield* aCustomer("Active", "Pending")
        const willRetry = event("payments", "failed", retrying.payment)
        expect(
          yield* receiveAndHandle({ ...willRetry, details: { ...willRetry.details, will_attempt_retry: true } })
        ).toEqual(["duplicate"])
        expect(yield* paymentStatus(retrying.user.id)).toBe("Pending")
        expect(yield* noticesTo(retrying.billingEmail)).toEqual([])
      })
    )

    it.effect("ignores, and keeps, events of resources it does not know and of other kinds", () =>
      Effect.gen(function* () {
        const unknownPayment = event("payments", "failed", "PM_NOT_OURS")
        const unknownMandate = event("mandates", "cancelled", "MD_NOT_OURS")
        const payout = { ...event("payments", "paid", "PO1"), resourceType: "payouts", links: { payout: "PO1" } }
        expect(yield* receiveAndHandle(unknownPayment, unknownMandate, payout)).toEqual([
          "ignored",
          "ignored",
          "ignored"
        ])
      })
    )

    it.effect("never moves back: a late event is checked with the provider and changes nothing it should not", () =>
      Effect.gen(function* () {
        const control = yield* DirectDebitControl
        // Paid out, then charged back; the paid_out event arrives after the charge-back's.
        const paid = yield* aCustomer("Active", "Pending")
        yield* control.setPaymentStatus(paid.payment, "charged_back")
        const chargedBack = event("payments", "charged_back", paid.payment, 10)
        const paidOut = event("payments", "paid_out", paid.payment, 60)
        expect(yield* receiveAndHandle(chargedBack)).toEqual(["applied"])
        expect(yield* receiveAndHandle(paidOut)).toEqual(["ignored"])
        expect(yield* paymentStatus(paid.user.id)).toBe("Failed")
        // Both in one webhook, newest first: handled oldest first, so Paid then Failed.
        const both = yield* aCustomer("Active", "Pending")
        yield* control.setPaymentStatus(both.payment, "charged_back")
        expect(
          yield* receiveAndHandle(
            event("payments", "charged_back", both.payment, 10),
            event("payments", "paid_out", both.payment, 60)
          )
        ).toEqual(["applied", "applied"])
        expect(yield* paymentStatus(both.user.id)).toBe("Failed")
        // A mandate cancelled, then its late "active": the provider says cancelled, so it stays.
        const ended = yield* aCustomer("InProgress")
        yield* control.setMandateStatus(ended.reference, "cancelled")
        expect(yield* receiveAndHandle(event("mandates", "cancelled", ended.reference, 5))).toEqual(["applied"])
        expect(yield* receiveAndHandle(event("mandates", "active", ended.reference, 50))).toEqual(["ignored"])
        expect(yield* receiveAndHandle(event("mandates", "submitted", ended.reference, 90))).toEqual(["ignored"])
        expect(yield* mandateStatus(ended.user.id)).toEqual(Option.some("Cancelled"))
        // A payment retried after it failed: the late "failed" of the first attempt is checked, and
        // the provider's word (pending again) stands.
        const retried = yield* aCustomer("Active", "Pending")
        expect(yield* receiveAndHandle(event("payments", "confirmed", retried.payment, 5))).toEqual(["applied"])
        yield* control.setPaymentStatus(retried.payment, "confirmed")
        expect(yield* receiveAndHandle(event("payments", "failed", retried.payment, 50))).toEqual(["ignored"])
        expect(yield* paymentStatus(retried.user.id)).toBe("Paid")
      })
    )

    it.effect("handles each event once: a replay and a second claim change nothing and notify no one again", () =>
      Effect.gen(function* () {
        const customer = yield* aCustomer("Active", "Pending")
        const failed = event("payments", "failed", customer.payment)
        expect(yield* receiveAndHandle(failed)).toEqual(["applied"])
        expect(yield* receiveAndHandle(failed)).toEqual(["applied"])
        // Another event saying the same: known already.
        expect(yield* receiveAndHandle(event("payments", "failed", customer.payment))).toEqual(["duplicate"])
        expect(yield* noticesTo(customer.billingEmail)).toHaveLength(1)
      })
    )

    it.effect("queues a notice to the billing email for a failed or charged-back payment and an ended mandate", () =>
      Effect.gen(function* () {
        const failed = yield* aCustomer("Active", "Pending")
        yield* receiveAndHandle(event("payments", "failed", failed.payment))
        const [notice] = yield* noticesTo(failed.billingEmail)
        expect(notice).toMatchObject({
          type: "BillingNotice",
          tenantId: null,
          subject: `Payment of invoice ${failed.invoice.number} failed`
        })
        expect(notice!.body).toContain(`The direct debit payment of £2.40 for invoice ${failed.invoice.number} failed`)
        expect(notice!.body).toContain("What happens next: we will collect it again from the same account on")

        const chargedBack = yield* aCustomer("Active", "Paid")
        yield* (yield* DirectDebitControl).setPaymentStatus(chargedBack.payment, "charged_back")
        yield* receiveAndHandle(event("payments", "charged_back", chargedBack.payment))
        const [back] = yield* noticesTo(chargedBack.billingEmail)
        expect(back!.subject).toBe(`Payment of invoice ${chargedBack.invoice.number} charged back`)
        expect(back!.body).toContain(`£2.40 for invoice ${chargedBack.invoice.number} was charged back`)

        for (const [action, words] of [
          ["cancelled", "was cancelled"],
          ["failed", "could not be set up, or your bank stopped it"],
          ["expired", "has expired"]
        ] as const) {
          const ended = yield* aCustomer("Active", "Pending")
          yield* receiveAndHandle(event("mandates", action, ended.reference))
          const [mandateNotice] = yield* noticesTo(ended.billingEmail)
          expect(mandateNotice!.subject).toBe(`Your direct debit mandate ${ended.reference} has ended`)
          expect(mandateNotice!.body).toContain(`Your direct debit mandate ${ended.reference} ${words}`)
          expect(mandateNotice!.body).toContain(`Still to be paid: invoice ${ended.invoice.number} (£2.40).`)
          expect(mandateNotice!.body).toContain("What to do: set up a new direct debit mandate")
        }

        // Paid, activated or submitted: no one is told.
        const fine = yield* aCustomer("InProgress", "Pending")
        yield* receiveAndHandle(
          event("payments", "paid_out", fine.payment),
          event("mandates", "active", fine.reference)
        )
        expect(yield* noticesTo(fine.billingEmail)).toEqual([])
      })
    )

    it.effect("a replaced mandate becomes the new one (read from the provider); a reinstated one is Active again", () =>
      Effect.gen(function* () {
        const control = yield* DirectDebitControl
        const customer = yield* aCustomer("Active", "Pending")
        const replacement = yield* control.replaceMandate(customer.reference)
        const replaced = {
          ...event("mandates", "replaced", customer.reference),
          links: { mandate: customer.reference, new_mandate: replacement }
        }
        expect(yield* receiveAndHandle(replaced)).toEqual(["applied"])
        const now = Option.getOrThrow(yield* (yield* MandateRepo).latest(customer.user.id))
        expect(now).toMatchObject({ reference: replacement, status: "Active", accountHolderName: "Ada Lovelace" })
        // Sent again under another id: the mandate is already the new one.
        expect(yield* receiveAndHandle({ ...replaced, id: `${replaced.id}X` })).toEqual(["duplicate"])
        // Events of the old mandate no longer move the user's.
        expect(yield* receiveAndHandle(event("mandates", "cancelled", customer.reference))).toEqual(["ignored"])
        expect(yield* mandateStatus(customer.user.id)).toEqual(Option.some("Active"))

        const cancelled = yield* aCustomer("Cancelled", "Pending")
        yield* control.setMandateStatus(cancelled.reference, "active")
        expect(yield* receiveAndHandle(event("mandates", "reinstated", cancelled.reference))).toEqual(["applied"])
        expect(yield* mandateStatus(cancelled.user.id)).toEqual(Option.some("Active"))
      })
    )

    it.scoped("the worker handles what arrives while it runs", () =>
      Effect.gen(function* () {
        const customer = yield* aCustomer("Active", "Pending")
        yield* Layer.build(
          providerEventsWorker({ pollInterval: Duration.millis(20), concurrency: 4, lease: Duration.seconds(30) })
        )
        yield* (yield* ProviderEventReceiving).receive({
          notificationId: "WB2",
          events: [event("payments", "paid_out", customer.payment)]
        })
        yield* eventually(paymentStatus(customer.user.id), (s) => s === "Paid")
      })
    )
  }
)
