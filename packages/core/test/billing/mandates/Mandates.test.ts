import { DirectDebitControl } from "@cisbook/testkit/DirectDebitFake"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Option, Ref } from "effect"
import { Conflict, NotFound, Refused } from "../../../src/Errors.js"
import { BillingInvoiceRepo } from "../../../src/billing/billinginvoices/BillingInvoiceRepo.js"
import { waitingForMandate } from "../../../src/billing/billinginvoices/Collect.js"
import { DirectDebit } from "../../../src/billing/mandates/DirectDebit.js"
import { draftInvoice } from "../../../src/billing/billinginvoices/InvoiceDraft.js"
import { MandateRepo } from "../../../src/billing/mandates/MandateRepo.js"
import { BillingInvoiceId, MonthlyReturnId, TenantId } from "../../../src/Ids.js"
import type { User } from "../../../src/users/User.js"
import { BillingProfiles } from "../../../src/billing/mandates/BillingProfiles.js"
import { Mandates } from "../../../src/billing/mandates/Mandates.js"
import { Users } from "../../../src/users/Users.js"
import { ProviderEventHandling } from "../../../src/billing/providerevents/ProviderEventHandling.js"
import { ProviderEventReceiving } from "../../../src/billing/providerevents/ProviderEventReceiving.js"
import { asUser, aUser, claims, testApp, testAppWith } from "../../TestApp.js"

const successRedirectUrl = "https://app.example/done"
const MINUTE = 60 * 1000
const DAY = 24 * 60 * MINUTE

const address = {
  companyName: "Lovelace Builders Ltd",
  billingEmail: "accounts@lovelace.example",
  addressLine1: "1 Analytical Row",
  postcode: "sw1a1aa",
  country: "GB"
}

/** A user whose setup the customer has finished on the provider's page; the completion input. */
const finishedSetup = (email = "ada@example.com") =>
  Effect.gen(function* () {
    const user = yield* aUser(email)
    const mandates = yield* Mandates
    const setup = yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
    yield* (yield* DirectDebitControl).finish(setup.redirectFlowId)
    return { user, mandates, complete: { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken } }
  })

/** A finished invoice of the user's, for one return of two subcontractors, waiting for a mandate. */
const invoiceWaitingForMandate = (user: User) =>
  Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const id = BillingInvoiceId.make("0f9d5a4e-5b1a-4c55-9d0e-3b8a6f1c2d10")
    const usage = {
      returnId: MonthlyReturnId.make("7c1e2f3a-9b8d-4e6f-a1b2-c3d4e5f60718"),
      tenantId: TenantId.make("2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d"),
      tenant: "lovelace",
      tenantName: "Lovelace Builders Ltd",
      periodEnd: "2026-06-05",
      subcontractors: 2
    }
    const invoice = yield* repo.insert(
      draftInvoice({ id, userId: user.id, issueDate: "2026-07-01" }, [usage], 100),
      new Date(0)
    )
    yield* repo.recordCollection(user.id, id, waitingForMandate, true)
    return invoice
  })

describe("Mandates.setup", () => {
  it.effect("starts a setup (a billing request) prefilled from the billing profile, and is InProgress", () =>
    Effect.gen(function* () {
      const user = yield* aUser("ada@example.com", "Ada King Lovelace")
      yield* (yield* BillingProfiles).put(address).pipe(asUser(user))
      const setup = yield* (yield* Mandates).setup({ successRedirectUrl }).pipe(asUser(user))
      const { state } = yield* DirectDebitControl
      const flow = (yield* Ref.get(state)).flows.get(setup.redirectFlowId)
      expect(flow?.request).toMatchObject({
        userId: user.id,
        successRedirectUrl,
        prefilledCustomer: {
          givenName: "Ada King",
          familyName: "Lovelace",
          companyName: "Lovelace Builders Ltd",
          email: "accounts@lovelace.example",
          postalCode: "SW1A 1AA",
          countryCode: "GB"
        }
      })
      expect(setup.sessionToken).toMatch(/^sess_[A-Za-z0-9_-]{32}$/)
      expect((yield* (yield* BillingProfiles).get().pipe(asUser(user))).mandateStatus).toBe("InProgress")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is 409 while a flow is in progress, and possible again once its flow expired after 7 days", () =>
    Effect.gen(function* () {
      const user = yield* aUser("ada@example.com")
      const mandates = yield* Mandates
      const first = yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
      const clock = yield* ManualClock
      // Half an hour, then a day, then to a moment before the week is out: the customer may still complete the page.
      for (const wait of [30 * MINUTE, DAY, 7 * DAY - 30 * MINUTE - DAY - 1]) {
        yield* clock.advance(wait)
        expect(yield* Effect.flip(mandates.setup({ successRedirectUrl }).pipe(asUser(user)))).toEqual(
          new Conflict({
            detail:
              "You already have an active or in-progress direct debit mandate: cancel it before setting up another.",
            remedy: { _tag: "CancelMandate" }
          })
        )
        expect((yield* mandates.get().pipe(asUser(user))).status).toBe("InProgress")
      }
      const { state } = yield* DirectDebitControl
      // Neither the reads nor the refused setups cancelled the customer's billing request.
      expect((yield* Ref.get(state)).flows.get(first.redirectFlowId)?.cancelled).toBe(false)
      yield* clock.advance(1)
      expect((yield* (yield* BillingProfiles).get().pipe(asUser(user))).mandateStatus).toBe("Expired")
      expect((yield* mandates.get().pipe(asUser(user))).status).toBe("Expired")
      expect((yield* Ref.get(state)).flows.get(first.redirectFlowId)?.cancelled).toBe(false)
      const second = yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
      expect(second.redirectFlowId).not.toBe(first.redirectFlowId)
      // The expired setup was cancelled with the provider when the new one started; the new one was not.
      expect((yield* Ref.get(state)).flows.get(first.redirectFlowId)?.cancelled).toBe(true)
      expect((yield* Ref.get(state)).flows.get(second.redirectFlowId)?.cancelled).toBe(false)
      // The expired flow can no longer be completed.
      yield* (yield* DirectDebitControl).finish(first.redirectFlowId)
      const late = yield* Effect.flip(
        mandates.complete({ redirectFlowId: first.redirectFlowId, sessionToken: first.sessionToken }).pipe(asUser(user))
      )
      expect(late).toEqual(
        new Refused({
          detail: "This mandate setup has expired (its page could be completed for 7 days): start a new one.",
          remedy: { _tag: "StartMandateSetup" }
        })
      )
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("a setup completed on the sixth day is the user's mandate", () =>
    Effect.gen(function* () {
      const { complete, mandates, user } = yield* finishedSetup()
      yield* (yield* ManualClock).advance(6 * DAY)
      expect((yield* mandates.complete(complete).pipe(asUser(user))).reference).toMatch(/^MD/)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is 400 for a user with no email address and no profile, and reserves nothing", () =>
    Effect.gen(function* () {
      const user = yield* (yield* Users).fromClaims(claims("sub-x", { email: undefined }))
      const error = yield* Effect.flip((yield* Mandates).setup({ successRedirectUrl }).pipe(asUser(user)))
      expect(error).toBeInstanceOf(Refused)
      expect(error).toMatchObject({ remedy: { _tag: "SetBillingEmail" } })
      expect(yield* (yield* MandateRepo).latest(user.id)).toEqual(Option.none())
      expect(yield* (yield* DirectDebitControl).flowsCreated).toBe(0)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("passes the provider's refusal on as 400 and gives the reservation back", () =>
    Effect.gen(function* () {
      const user = yield* aUser("refuse@example.com")
      const mandates = yield* Mandates
      const error = yield* Effect.flip(mandates.setup({ successRedirectUrl }).pipe(asUser(user)))
      expect(error).toEqual(
        new Refused({
          detail: "The direct debit provider refused: prefilled_customer.email has been refused by the sandbox"
        })
      )
      expect(yield* (yield* MandateRepo).latest(user.id)).toEqual(Option.none())
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("names an invalid successRedirectUrl", () =>
    Effect.gen(function* () {
      const user = yield* aUser("ada@example.com")
      const error = yield* Effect.flip((yield* Mandates).setup({ successRedirectUrl: "/relative" }).pipe(asUser(user)))
      expect(error).toMatchObject({ _tag: "ValidationFailed", errors: { successRedirectUrl: [expect.any(String)] } })
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Mandates.complete", () => {
  it.effect("needs the customer to have finished the page, then stores the mandate and puts invoices forward", () =>
    Effect.gen(function* () {
      const user = yield* aUser("ada@example.com")
      const waiting = yield* invoiceWaitingForMandate(user)
      const mandates = yield* Mandates
      const setup = yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
      const complete = { redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }
      expect((yield* Effect.flip(mandates.complete(complete).pipe(asUser(user)))).detail).toMatch(/not finished/)
      yield* (yield* DirectDebitControl).finish(setup.redirectFlowId)
      const mandate = yield* mandates.complete(complete).pipe(asUser(user))
      expect(mandate).toMatchObject({
        status: "InProgress",
        accountHolderName: "Ada Lovelace",
        bankName: "BARCLAYS BANK PLC"
      })
      expect(mandate.reference).toMatch(/^MD/)
      const collected = Option.getOrThrow(yield* (yield* BillingInvoiceRepo).find(user.id, waiting.id)).invoice
      expect(collected).toMatchObject({ paymentStatus: "Pending", mandateReference: mandate.reference })
      const { state } = yield* DirectDebitControl
      const payments = () => Effect.map(Ref.get(state), (s) => [...s.payments.values()])
      expect(yield* payments()).toEqual([
        expect.objectContaining({ id: collected.paymentReference, amount: waiting.total, mandateId: mandate.reference })
      ])
      // Idempotent: the same mandate again, and nothing collected twice.
      expect((yield* mandates.complete(complete).pipe(asUser(user))).reference).toBe(mandate.reference)
      expect(yield* payments()).toHaveLength(1)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("a setup cancelled with the provider cannot be completed: it ends Expired, a new one can start", () =>
    Effect.gen(function* () {
      const user = yield* aUser("ada@example.com")
      const mandates = yield* Mandates
      const setup = yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
      yield* (yield* DirectDebit).cancelMandateSetup(setup.redirectFlowId)
      const refused = yield* Effect.flip(
        mandates.complete({ redirectFlowId: setup.redirectFlowId, sessionToken: setup.sessionToken }).pipe(asUser(user))
      )
      expect(refused).toMatchObject({ _tag: "Refused", detail: expect.stringMatching(/was cancelled/) })
      expect((yield* (yield* BillingProfiles).get().pipe(asUser(user))).mandateStatus).toBe("Expired")
      yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a wrong session token and another user's flow", () =>
    Effect.gen(function* () {
      const { complete, mandates, user } = yield* finishedSetup()
      expect(
        yield* Effect.flip(mandates.complete({ ...complete, sessionToken: "sess_wrong" }).pipe(asUser(user)))
      ).toBeInstanceOf(Refused)
      const other = yield* aUser("bob@example.com")
      expect(yield* Effect.flip(mandates.complete(complete).pipe(asUser(other)))).toBeInstanceOf(Refused)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Mandates.get and cancel", () => {
  it.effect("get is 404 before any setup, then follows the provider's status", () =>
    Effect.gen(function* () {
      const stranger = yield* aUser("bob@example.com")
      expect(yield* Effect.flip((yield* Mandates).get().pipe(asUser(stranger)))).toBeInstanceOf(NotFound)
      const { complete, mandates, user } = yield* finishedSetup()
      const mandate = yield* mandates.complete(complete).pipe(asUser(user))
      yield* (yield* DirectDebitControl).setMandateStatus(mandate.reference ?? "", "active")
      expect((yield* mandates.get().pipe(asUser(user))).status).toBe("Active")
      yield* (yield* DirectDebitControl).setMandateStatus(mandate.reference ?? "", "suspended_by_payer")
      expect((yield* mandates.get().pipe(asUser(user))).status).toBe("Failed")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("cancel is 404 with only a started flow; cancels a mandate with the provider; then 404 again", () =>
    Effect.gen(function* () {
      const { complete, mandates, user } = yield* finishedSetup()
      expect(yield* Effect.flip(mandates.cancel().pipe(asUser(user)))).toBeInstanceOf(NotFound)
      const mandate = yield* mandates.complete(complete).pipe(asUser(user))
      yield* mandates.cancel().pipe(asUser(user))
      const { state } = yield* DirectDebitControl
      expect((yield* Ref.get(state)).mandates.get(mandate.reference ?? "")?.status).toBe("cancelled")
      expect((yield* mandates.get().pipe(asUser(user))).status).toBe("Cancelled")
      expect(yield* Effect.flip(mandates.cancel().pipe(asUser(user)))).toBeInstanceOf(NotFound)
      yield* mandates.setup({ successRedirectUrl }).pipe(asUser(user))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("cancelling a mandate GoCardless already cancelled (cancellation_failed) ends it Cancelled here", () =>
    Effect.gen(function* () {
      const { complete, mandates, user } = yield* finishedSetup()
      const mandate = yield* mandates.complete(complete).pipe(asUser(user))
      // Cancelled by the payer at their bank; no event has told us yet.
      yield* (yield* DirectDebitControl).setMandateStatus(mandate.reference ?? "", "cancelled")
      expect(Option.getOrThrow(yield* (yield* MandateRepo).live(user.id)).status).toBe("InProgress")
      yield* mandates.cancel().pipe(asUser(user))
      expect(Option.getOrThrow(yield* (yield* MandateRepo).latest(user.id)).status).toBe("Cancelled")
      expect(yield* Effect.flip(mandates.cancel().pipe(asUser(user)))).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(testApp()))
  )
})

/** A read of one mandate held after the provider answered it, until the test lets it go on. */
let held: {
  readonly id: string
  readonly answered: Deferred.Deferred<void>
  readonly goOn: Deferred.Deferred<void>
} | null = null

/** The provider, whose answer about the held mandate reaches its reader only when the test says so. */
const appHoldingReads = testAppWith(DirectDebit, (provider) =>
  Effect.succeed(
    DirectDebit.of({
      ...provider,
      getMandate: (id) =>
        Effect.flatMap(provider.getMandate(id), (mandate) => {
          const hold = held
          if (hold === null || hold.id !== id) return Effect.succeed(mandate)
          held = null
          return Deferred.succeed(hold.answered, undefined).pipe(
            Effect.zipRight(Deferred.await(hold.goOn)),
            Effect.as(mandate)
          )
        })
    })
  )
)

describe("a mandate the provider replaced", () => {
  it.effect("a read racing the replaced event never puts the user back on the old mandate", () =>
    Effect.gen(function* () {
      const { complete, mandates, user } = yield* finishedSetup()
      const old = (yield* mandates.complete(complete).pipe(asUser(user))).reference!
      const control = yield* DirectDebitControl
      yield* control.setMandateStatus(old, "active")

      // GET /me/billing/mandate reads the mandate from the provider (still active) ...
      const answered = yield* Deferred.make<void>()
      const goOn = yield* Deferred.make<void>()
      held = { id: old, answered, goOn }
      const reading = yield* Effect.fork(mandates.get().pipe(asUser(user)))
      yield* Deferred.await(answered)
      // ... meanwhile GoCardless replaces it, and its `replaced` event is handled ...
      const replacement = yield* control.replaceMandate(old)
      yield* (yield* ProviderEventReceiving).receive({
        notificationId: "WB1",
        events: [
          {
            id: "EV_REPLACED",
            createdAt: new Date(),
            resourceType: "mandates",
            action: "replaced",
            resourceId: old,
            links: { mandate: old, new_mandate: replacement },
            details: { origin: "gocardless", cause: "mandate_replaced" },
            metadata: {}
          }
        ]
      })
      const work = yield* ProviderEventHandling
      yield* work.record(yield* Effect.forEach(yield* work.claim(10, Duration.minutes(1)), work.attempt))
      expect(Option.getOrThrow(yield* (yield* MandateRepo).latest(user.id)).reference).toBe(replacement)
      // ... then the read goes on with what it had read before: it does not write the old mandate back.
      yield* Deferred.succeed(goOn, undefined)
      expect((yield* Fiber.join(reading)).reference).toBe(replacement)
      expect(Option.getOrThrow(yield* (yield* MandateRepo).latest(user.id))).toMatchObject({
        reference: replacement,
        status: "Active"
      })
      expect((yield* mandates.get().pipe(asUser(user))).reference).toBe(replacement)
    }).pipe(Effect.provide(appHoldingReads))
  )

  it.effect(
    "a read before the replaced event arrives follows the provider's new_mandate; the late event is a duplicate",
    () =>
      Effect.gen(function* () {
        const { complete, mandates, user } = yield* finishedSetup()
        const old = (yield* mandates.complete(complete).pipe(asUser(user))).reference!
        const replacement = yield* (yield* DirectDebitControl).replaceMandate(old)
        expect(yield* mandates.get().pipe(asUser(user))).toMatchObject({ reference: replacement, status: "Active" })
        yield* (yield* ProviderEventReceiving).receive({
          notificationId: "WB2",
          events: [
            {
              id: "EV_LATE_REPLACED",
              createdAt: new Date(),
              resourceType: "mandates",
              action: "replaced",
              resourceId: old,
              links: { mandate: old, new_mandate: replacement },
              details: {},
              metadata: {}
            }
          ]
        })
        const work = yield* ProviderEventHandling
        yield* work.record(yield* Effect.forEach(yield* work.claim(10, Duration.minutes(1)), work.attempt))
        expect((yield* (yield* ProviderEventReceiving).list(10)).map((e) => e.handled)).toEqual(["duplicate"])
        expect(Option.getOrThrow(yield* (yield* MandateRepo).latest(user.id)).reference).toBe(replacement)
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "DELETE of a mandate GoCardless replaced before its event arrived cancels the new one; the late event keeps it so",
    () =>
      Effect.gen(function* () {
        const { complete, mandates, user } = yield* finishedSetup()
        const old = (yield* mandates.complete(complete).pipe(asUser(user))).reference!
        const control = yield* DirectDebitControl
        const replacement = yield* control.replaceMandate(old)
        yield* mandates.cancel().pipe(asUser(user))
        expect((yield* Ref.get(control.state)).mandates.get(replacement)?.status).toBe("cancelled")
        expect(Option.getOrThrow(yield* (yield* MandateRepo).latest(user.id))).toMatchObject({
          reference: replacement,
          status: "Cancelled"
        })
        yield* (yield* ProviderEventReceiving).receive({
          notificationId: "WB3",
          events: [
            {
              id: "EV_REPLACED_AFTER_DELETE",
              createdAt: new Date(),
              resourceType: "mandates",
              action: "replaced",
              resourceId: old,
              links: { mandate: old, new_mandate: replacement },
              details: {},
              metadata: {}
            }
          ]
        })
        const work = yield* ProviderEventHandling
        yield* work.record(yield* Effect.forEach(yield* work.claim(10, Duration.minutes(1)), work.attempt))
        expect(Option.getOrThrow(yield* (yield* MandateRepo).latest(user.id)).status).toBe("Cancelled")
        expect(yield* Effect.flip(mandates.cancel().pipe(asUser(user)))).toBeInstanceOf(NotFound)
      }).pipe(Effect.provide(testApp()))
  )
})
