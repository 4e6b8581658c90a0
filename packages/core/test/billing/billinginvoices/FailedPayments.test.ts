import { DirectDebitControl } from "@cisbook/testkit/DirectDebitFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Ref, TestClock } from "effect"
import { BillingInvoiceRepo } from "../../../src/billing/billinginvoices/BillingInvoiceRepo.js"
import { BillingProfiles } from "../../../src/billing/mandates/BillingProfiles.js"
import { BillingRun } from "../../../src/billing/billinginvoices/BillingRun.js"
import { waitingForMandate } from "../../../src/billing/billinginvoices/Collect.js"
import { DirectDebit, DirectDebitRefused } from "../../../src/billing/mandates/DirectDebit.js"
import { DirectDebitUnavailable } from "../../../src/billing/mandates/DirectDebitFaults.js"
import { draftInvoice } from "../../../src/billing/billinginvoices/InvoiceDraft.js"
import { Mandates } from "../../../src/billing/mandates/Mandates.js"
import { ProviderEventHandling } from "../../../src/billing/providerevents/ProviderEventHandling.js"
import { ProviderEventReceiving } from "../../../src/billing/providerevents/ProviderEventReceiving.js"
import { BillingInvoiceId, MonthlyReturnId, TenantId } from "../../../src/Ids.js"
import { MailOutbox } from "../../../src/mail/MailOutbox.js"
import { UseCasesLive } from "../../../src/UseCases.js"
import { WaitingInvoices } from "../../../src/billing/mandates/WaitingInvoices.js"
import type { User } from "../../../src/users/User.js"
import { ukCalendarDate } from "../../../src/CalendarDate.js"
import { asUser, aUser } from "../../TestApp.js"

/** Every use case over in-memory ports, the Clock port on Effect's clock (moved with TestClock). */
const app = UseCasesLive.pipe(
  Layer.provideMerge(ClockOfEffect),
  Layer.provideMerge(MemoryPorts),
  Layer.provideMerge(identityVerifierFake({}))
)

const START = new Date("2026-11-21T09:00:00.000Z")
const DAY = Duration.days(1)

/** A user with a billing address and a completed mandate; MD... */
const customer = (email: string) =>
  Effect.gen(function* () {
    const user = yield* aUser(email, "Ada Lovelace")
    yield* (yield* BillingProfiles)
      .put({
        companyName: "Lovelace Builders Ltd",
        billingEmail: `accounts.${email}`,
        addressLine1: "1 Analytical Row",
        postcode: "SW1A 1AA",
        country: "GB"
      })
      .pipe(asUser(user))
    const reference = yield* completedMandate(user)
    return { user, reference, billingEmail: `accounts.${email}` }
  })

const completedMandate = (user: User) =>
  Effect.gen(function* () {
    const mandates = yield* Mandates
    const setup = yield* mandates.setup({ successRedirectUrl: "https://app.example/done" }).pipe(asUser(user))
    yield* (yield* DirectDebitControl).finish(setup.redirectFlowId)
    return (yield* mandates.complete(setup).pipe(asUser(user))).reference!
  })

let invoices = 0
/** A finished invoice of £2.40 waiting for a mandate, then put forward on the user's mandate: Pending, PM... */
const collectingInvoice = (user: User, reference: string) =>
  Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const n = String(++invoices).padStart(12, "0")
    const invoice = yield* repo.insert(
      draftInvoice(
        { id: BillingInvoiceId.make(`0f9d5a4e-5b1a-4c55-9d0e-${n}`), userId: user.id, issueDate: "2026-11-01" },
        [
          {
            returnId: MonthlyReturnId.make(`7c1e2f3a-9b8d-4e6f-a1b2-${n}`),
            tenantId: TenantId.make("2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d"),
            tenant: "lovelace",
            tenantName: "Lovelace Builders Ltd",
            periodEnd: "2026-10-05",
            subcontractors: 2
          }
        ],
        100
      ),
      START
    )
    yield* repo.recordCollection(user.id, invoice.id, waitingForMandate, true)
    yield* (yield* WaitingInvoices).putForward(user.id, reference)
    return yield* stored(user, invoice.id)
  })

const stored = (user: User, id: BillingInvoiceId) =>
  Effect.flatMap(BillingInvoiceRepo, (repo) => repo.find(user.id, id)).pipe(
    Effect.map((found) => {
      if (found._tag === "None") throw new Error("no such invoice")
      return found.value.invoice
    })
  )

let events = 0
/** The provider says, by webhook, that the payment `action`; the worker handles it. */
const paymentEvent = (payment: string, action: string, details: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const work = yield* ProviderEventHandling
    const id = `EV${String(++events).padStart(6, "0")}`
    yield* (yield* ProviderEventReceiving).receive({
      notificationId: null,
      events: [
        {
          id,
          createdAt: new Date(),
          resourceType: "payments",
          action,
          resourceId: payment,
          links: { payment },
          details,
          metadata: {}
        }
      ]
    })
    const claimed = yield* work.claim(10, Duration.minutes(1))
    yield* work.record(yield* Effect.forEach(claimed, work.attempt))
  })

/** The payment fails at the provider (no retry of its own), and its event arrives. */
const paymentFails = (payment: string) =>
  Effect.gen(function* () {
    yield* (yield* DirectDebitControl).setPaymentStatus(payment, "failed")
    yield* paymentEvent(payment, "failed", {
      origin: "bank",
      cause: "insufficient_funds",
      description: "The customer's account had insufficient funds to make this payment.",
      will_attempt_retry: false
    })
  })

const providerStatus = (payment: string) =>
  Effect.flatMap(DirectDebitControl, ({ state }) => Effect.map(Ref.get(state), (s) => s.payments.get(payment)?.status))

/** The bodies of the billing notices queued to `to`, oldest first. */
const noticesTo = (to: string) =>
  Effect.gen(function* () {
    const outbox = yield* MailOutbox
    const listed = (yield* outbox.list({ status: null, limit: 500 })).filter((m) => m.to === to)
    const claimed = yield* outbox.claimDue(new Date(8.64e15), new Date(8.64e15), 500)
    return listed
      .map((m) => ({ subject: m.subject, body: claimed.find((c) => c.mail.id === m.id)?.mail.body ?? "" }))
      .reverse()
  })

const run = Effect.flatMap(BillingRun, (billing) => billing.run("2026-12-01"))

/** The billing run dated `date` (its "today"), whatever the clock says. */
const runDated = (date: string) => Effect.flatMap(BillingRun, (billing) => billing.run(date))

/** The billing run dated the clock's UK day, as the nightly job runs it. */
const runToday = Effect.flatMap(TestClock.currentTimeMillis, (now) => runDated(ukCalendarDate(new Date(now))))

describe("collecting failed payments again", () => {
  it.effect(
    "a failure is retried by the billing run dated 3 days later, at most 3 times, then waits for a new mandate; each notice says what comes next",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START.getTime())
        const { billingEmail, reference, user } = yield* customer("ada@example.com")
        const invoice = yield* collectingInvoice(user, reference)
        const payment = invoice.paymentReference!
        expect(invoice).toMatchObject({ paymentStatus: "Pending", mandateReference: reference, paymentRetries: 0 })

        yield* paymentFails(payment)
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Failed", failedAt: START })
        const [first] = yield* noticesTo(billingEmail)
        expect(first?.subject).toBe(`Payment of invoice ${invoice.number} failed`)
        expect(first?.body).toContain(
          "The reason given: The customer's account had insufficient funds to make this payment."
        )
        expect(first?.body).toContain("we will collect it again from the same account on 24 November 2026")

        // A run dated two days on leaves it: not due yet, whatever the clock says.
        yield* TestClock.adjust(Duration.times(DAY, 5))
        expect((yield* runDated("2026-11-23")).collectedAgain).toEqual([])
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Failed", paymentRetries: 0 })
        expect(yield* providerStatus(payment)).toBe("failed")

        // A run dated three days after the failure retries it, though the clock is back on the day it failed.
        yield* TestClock.setTime(START.getTime())
        const [retried] = (yield* runDated("2026-11-24")).collectedAgain
        expect(retried).toMatchObject({ outcome: "Retried", reason: "retry 1 of 3" })
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Pending", paymentRetries: 1 })
        expect(yield* providerStatus(payment)).toBe("pending_submission")
        // A second run the same day retries nothing again.
        expect((yield* runDated("2026-11-24")).collectedAgain).toEqual([])

        // It fails twice more, each retried by the run dated 3 days later.
        for (const retry of [2, 3]) {
          yield* paymentFails(payment)
          yield* TestClock.adjust(Duration.times(DAY, 2))
          expect((yield* runToday).collectedAgain).toEqual([])
          yield* TestClock.adjust(DAY)
          expect((yield* runToday).collectedAgain.map((c) => c.reason)).toEqual([`retry ${retry} of 3`])
        }
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Pending", paymentRetries: 3 })

        // The third retry fails too: the notice no longer promises a retry, and the run moves it to wait.
        yield* paymentFails(payment)
        const notices = yield* noticesTo(billingEmail)
        expect(notices).toHaveLength(4)
        expect(notices[3]?.body).toContain("it will not be collected again on this mandate")
        expect(notices[3]?.body).not.toContain("we will collect it again")
        expect((yield* runToday).collectedAgain).toMatchObject([
          { outcome: "WaitingForMandate", reason: "its payment failed after 3 retries" }
        ])
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "WaitingForMandate" })
        expect(yield* providerStatus(payment)).toBe("failed")

        // The user cancels and sets up a new mandate: the invoice is collected on it.
        yield* (yield* Mandates).cancel().pipe(asUser(user))
        const next = yield* completedMandate(user)
        const collected = yield* stored(user, invoice.id)
        expect(collected).toMatchObject({ paymentStatus: "Pending", mandateReference: next })
        expect(collected.paymentReference).not.toBe(payment)
      }).pipe(Effect.provide(app))
  )

  it.effect("a retry is due on the third UK day after the failure, counted to the run's date", () =>
    Effect.gen(function* () {
      // Failed at 23:30 UTC on 10 June 2026: already 11 June in the UK (British Summer Time).
      const lateAtNight = new Date("2026-06-10T23:30:00.000Z")
      yield* TestClock.setTime(lateAtNight.getTime())
      const { reference, user } = yield* customer("ida@example.com")
      const invoice = yield* collectingInvoice(user, reference)
      yield* paymentFails(invoice.paymentReference!)
      expect((yield* runDated("2026-06-13")).collectedAgain).toEqual([])
      expect((yield* runDated("2026-06-14")).collectedAgain).toMatchObject([{ outcome: "Retried" }])
    }).pipe(Effect.provide(app))
  )

  it.effect("a failure GoCardless will retry itself keeps the invoice Pending, with no notice", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START.getTime())
      const { billingEmail, reference, user } = yield* customer("grace@example.com")
      const invoice = yield* collectingInvoice(user, reference)
      yield* paymentEvent(invoice.paymentReference!, "failed", {
        cause: "insufficient_funds",
        description: "The customer's account had insufficient funds to make this payment.",
        will_attempt_retry: true
      })
      expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Pending", failedAt: null })
      expect(yield* noticesTo(billingEmail)).toEqual([])
      yield* TestClock.adjust(Duration.times(DAY, 4))
      expect((yield* run).collectedAgain).toEqual([])
    }).pipe(Effect.provide(app))
  )

  it.effect(
    "an invoice whose mandate ended waits for a mandate at the next run, and one completed since collects it",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(START.getTime())
        const { billingEmail, reference, user } = yield* customer("mary@example.com")
        const invoice = yield* collectingInvoice(user, reference)
        const other = yield* customer("hedy@example.com")
        const otherInvoice = yield* collectingInvoice(other.user, other.reference)

        // Mary's mandate is cancelled after the failure: the notice sends her to a new mandate.
        yield* (yield* DirectDebitControl).setMandateStatus(reference, "cancelled")
        yield* (yield* Mandates).get().pipe(asUser(user))
        yield* paymentFails(invoice.paymentReference!)
        const notices = yield* noticesTo(billingEmail)
        expect(notices.at(-1)?.body).toContain("Set up a new direct debit mandate")
        // Hedy's failed while her mandate stood; she then cancelled it and set up another before the run.
        yield* paymentFails(otherInvoice.paymentReference!)
        yield* (yield* Mandates).cancel().pipe(asUser(other.user))
        const newer = yield* completedMandate(other.user)
        expect(yield* stored(other.user, otherInvoice.id)).toMatchObject({ paymentStatus: "Failed" })

        // The run dated the day of the failures moves both at once: neither waits for a retry.
        const outcomes = (yield* runToday).collectedAgain.map((c) => [c.invoice.number, c.outcome])
        expect(outcomes).toEqual([
          [invoice.number, "WaitingForMandate"],
          [otherInvoice.number, "PutForward"]
        ])
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "WaitingForMandate" })
        expect(yield* stored(other.user, otherInvoice.id)).toMatchObject({
          paymentStatus: "Pending",
          mandateReference: newer
        })
        const mary = yield* completedMandate(user)
        expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Pending", mandateReference: mary })
      }).pipe(Effect.provide(app))
  )

  it.effect("a retry the provider refuses waits for a mandate; a provider that is down leaves it to the next run", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START.getTime())
      const { reference, user } = yield* customer("alan@example.com")
      const invoice = yield* collectingInvoice(user, reference)
      yield* paymentFails(invoice.paymentReference!)
      yield* TestClock.adjust(Duration.times(DAY, 3))

      const failing = (error: Effect.Effect<never, DirectDebitRefused>) =>
        Layer.effect(
          DirectDebit,
          Effect.map(DirectDebit, (real) => DirectDebit.of({ ...real, retryPayment: () => error }))
        )
      const down = yield* Effect.flatMap(BillingRun, (billing) => billing.run("2026-12-01")).pipe(
        Effect.provide(
          BillingRun.Default.pipe(
            Layer.provide(
              failing(
                Effect.die(new DirectDebitUnavailable({ message: "GoCardless timed out", retryAfterSeconds: 30 }))
              )
            )
          )
        )
      )
      expect(down.collectedAgain).toMatchObject([{ outcome: "Unreached", reason: "GoCardless timed out" }])
      expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "Failed", paymentRetries: 0 })

      const refused = yield* Effect.flatMap(BillingRun, (billing) => billing.run("2026-12-01")).pipe(
        Effect.provide(
          BillingRun.Default.pipe(
            Layer.provide(
              failing(
                Effect.fail(
                  new DirectDebitRefused({ reason: "invalid_state", message: "This payment cannot be retried" })
                )
              )
            )
          )
        )
      )
      expect(refused.collectedAgain).toMatchObject([
        { outcome: "WaitingForMandate", reason: "the provider refused the retry: This payment cannot be retried" }
      ])
      expect(yield* stored(user, invoice.id)).toMatchObject({ paymentStatus: "WaitingForMandate" })
    }).pipe(Effect.provide(app))
  )
})
