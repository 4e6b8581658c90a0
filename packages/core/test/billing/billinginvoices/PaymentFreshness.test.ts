import { DirectDebitControl } from "@cisbook/testkit/DirectDebitFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { BillingInvoiceRepo } from "../../../src/billing/billinginvoices/BillingInvoiceRepo.js"
import { BillingInvoices } from "../../../src/billing/billinginvoices/BillingInvoices.js"
import { waitingForMandate } from "../../../src/billing/billinginvoices/Collect.js"
import { draftInvoice } from "../../../src/billing/billinginvoices/InvoiceDraft.js"
import { DirectDebit } from "../../../src/billing/mandates/DirectDebit.js"
import { Mandates } from "../../../src/billing/mandates/Mandates.js"
import { WaitingInvoices } from "../../../src/billing/mandates/WaitingInvoices.js"
import { ProviderEventHandling } from "../../../src/billing/providerevents/ProviderEventHandling.js"
import { ProviderEventReceiving } from "../../../src/billing/providerevents/ProviderEventReceiving.js"
import { BillingInvoiceId, MonthlyReturnId, TenantId } from "../../../src/Ids.js"
import { UseCasesLive } from "../../../src/UseCases.js"
import type { User } from "../../../src/users/User.js"
import { asUser, aUser } from "../../TestApp.js"

/** The provider's listings of a mandate's payments, counted; held while `held` holds a gate. */
class Listings extends Effect.Service<Listings>()("test/Listings", {
  effect: Effect.all({
    calls: Ref.make(0),
    held: Ref.make(Option.none<Deferred.Deferred<void>>())
  })
}) {}

const ListingsCounted = Layer.effect(
  DirectDebit,
  Effect.gen(function* () {
    const real = yield* DirectDebit
    const { calls, held } = yield* Listings
    return DirectDebit.of({
      ...real,
      listPayments: (mandateId) =>
        Ref.update(calls, (n) => n + 1).pipe(
          Effect.zipRight(Ref.get(held)),
          Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: Deferred.await })),
          Effect.zipRight(real.listPayments(mandateId))
        )
    })
  })
).pipe(Layer.provideMerge(Listings.Default))

/** Every use case over in-memory ports, the Clock port on Effect's clock (moved with TestClock). */
const app = UseCasesLive.pipe(
  Layer.provideMerge(ListingsCounted),
  Layer.provideMerge(ClockOfEffect),
  Layer.provideMerge(MemoryPorts),
  Layer.provideMerge(identityVerifierFake({}))
)

const START = new Date("2026-11-21T09:00:00.000Z")

/** A user with a completed mandate and one finished invoice collected on it: Pending, PM... */
const pendingInvoice = (email: string) =>
  Effect.gen(function* () {
    const user = yield* aUser(email, "Ada Lovelace")
    const mandates = yield* Mandates
    const setup = yield* mandates.setup({ successRedirectUrl: "https://app.example/done" }).pipe(asUser(user))
    yield* (yield* DirectDebitControl).finish(setup.redirectFlowId)
    const reference = (yield* mandates.complete(setup).pipe(asUser(user))).reference!
    const repo = yield* BillingInvoiceRepo
    const invoice = yield* repo.insert(
      draftInvoice(
        { id: BillingInvoiceId.make("0f9d5a4e-5b1a-4c55-9d0e-000000000001"), userId: user.id, issueDate: "2026-11-01" },
        [
          {
            returnId: MonthlyReturnId.make("7c1e2f3a-9b8d-4e6f-a1b2-000000000001"),
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
    const [collecting] = yield* listed(user)
    return { user, payment: collecting!.paymentReference! }
  })

/** The user's invoices as GET /me/billing/invoices lists them. */
const listed = (user: User) => Effect.flatMap(BillingInvoices, (invoices) => invoices.list().pipe(asUser(user)))

const statusListed = (user: User) => Effect.map(listed(user), (invoices) => invoices.map((i) => i.paymentStatus))

/** The provider's payment moves without telling us (no event): only asking it shows the move. */
const movesQuietly = (payment: string, status: string) =>
  Effect.flatMap(DirectDebitControl, (control) => control.setPaymentStatus(payment, status))

describe("the invoice list asks the provider only for payments not heard of within a minute", () => {
  it.effect("a payment read by a listing is not asked again for a minute, and is after it", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START.getTime())
      // The first listing (in pendingInvoice) read the new payment: pending_submission, Pending.
      const { payment, user } = yield* pendingInvoice("ada@example.com")
      expect((yield* listed(user))[0]?.paymentReadAt).toEqual(START)
      yield* movesQuietly(payment, "paid_out")

      yield* TestClock.adjust(Duration.seconds(59))
      expect(yield* statusListed(user)).toEqual(["Pending"])

      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* statusListed(user)).toEqual(["Paid"])
      const [stored] = yield* Effect.flatMap(BillingInvoiceRepo, (repo) => repo.list(user.id))
      expect(stored).toMatchObject({ paymentStatus: "Paid", paymentReadAt: new Date(START.getTime() + 60_000) })
    }).pipe(Effect.provide(app))
  )

  it.effect("listings at the same time share one provider call, and each answers what it found", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START.getTime())
      const { payment, user } = yield* pendingInvoice("hedy@example.com")
      const { calls, held } = yield* Listings
      expect(yield* Ref.get(calls)).toBe(1)
      yield* TestClock.adjust(Duration.minutes(2))
      yield* movesQuietly(payment, "paid_out")
      const gate = yield* Deferred.make<void>()
      yield* Ref.set(held, Option.some(gate))

      const three = yield* Effect.fork(
        Effect.all(
          [1, 2, 3].map(() => statusListed(user)),
          { concurrency: 3 }
        )
      )
      // Every listing is under way (each waits for the provider) before the provider answers.
      yield* Effect.repeat(Effect.yieldNow(), { times: 20 })
      expect(yield* Ref.get(calls)).toBe(2)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(three)).toEqual([["Paid"], ["Paid"], ["Paid"]])
      expect(yield* Ref.get(calls)).toBe(2)
    }).pipe(Effect.provide(app))
  )

  it.effect("a listing that still finds the payment unchanged starts its minute again", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START.getTime())
      const { payment, user } = yield* pendingInvoice("grace@example.com")
      yield* TestClock.adjust(Duration.seconds(90))
      expect(yield* statusListed(user)).toEqual(["Pending"])
      yield* movesQuietly(payment, "confirmed")
      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* statusListed(user)).toEqual(["Pending"])
      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* statusListed(user)).toEqual(["Paid"])
    }).pipe(Effect.provide(app))
  )

  it.effect("a payment moved by the provider's event counts as heard of: not asked for a minute after the move", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START.getTime())
      const { payment, user } = yield* pendingInvoice("mary@example.com")
      // Two minutes on, the payment fails and its event arrives: the worker moves the invoice.
      yield* TestClock.adjust(Duration.minutes(2))
      yield* movesQuietly(payment, "failed")
      const work = yield* ProviderEventHandling
      yield* (yield* ProviderEventReceiving).receive({
        notificationId: null,
        events: [
          {
            id: "EV000001",
            createdAt: new Date(START.getTime() + 120_000),
            resourceType: "payments",
            action: "failed",
            resourceId: payment,
            links: { payment },
            details: { origin: "bank", cause: "insufficient_funds", will_attempt_retry: false },
            metadata: {}
          }
        ]
      })
      yield* work.record(yield* Effect.forEach(yield* work.claim(10, Duration.minutes(1)), work.attempt))
      const [moved] = yield* Effect.flatMap(BillingInvoiceRepo, (repo) => repo.list(user.id))
      expect(moved).toMatchObject({ paymentStatus: "Failed", paymentReadAt: new Date(START.getTime() + 120_000) })

      // The provider's status moves on quietly (a charge-back reversed, say): a listing within the minute does not ask.
      yield* movesQuietly(payment, "paid_out")
      yield* TestClock.adjust(Duration.seconds(59))
      expect(yield* statusListed(user)).toEqual(["Failed"])
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* statusListed(user)).toEqual(["Paid"])
    }).pipe(Effect.provide(app))
  )
})
