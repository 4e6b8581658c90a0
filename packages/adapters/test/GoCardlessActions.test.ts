import { goCardlessDirectDebitOver } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { waitingForMandate } from "@cisbook/core/billing/billinginvoices/Collect"
import { draftInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { WaitingInvoices } from "@cisbook/core/billing/mandates/WaitingInvoices"
import { Email } from "@cisbook/core/Email"
import { BillingInvoiceId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { asUser } from "@cisbook/core/users/ActingAs"
import { Users } from "@cisbook/core/users/Users"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { setupFor } from "@cisbook/testkit/contracts/DirectDebitContract"
import { DirectDebit, type MandateSetupStarted } from "@cisbook/core/billing/mandates/DirectDebit"
import { DirectDebitUnavailable } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Fiber, Layer, Option, Redacted, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { type Fault, recordedGoCardlessClient } from "./RecordedGoCardless.js"

/** The adapter over GoCardless's published answers, in process, its time the TestClock's. */
const gocardless = Effect.gen(function* () {
  const replay = yield* recordedGoCardlessClient
  const provider = yield* Effect.provide(
    DirectDebit,
    goCardlessDirectDebitOver({
      baseUrl: "https://api-sandbox.gocardless.com",
      accessToken: Redacted.make("sandbox_t")
    }).pipe(Layer.provide(replay.layer))
  )
  /** How many times the adapter sent `METHOD path`, whether or not it reached GoCardless. */
  const sent = (call: string) => Effect.map(replay.sent, (all) => all.filter((c) => c === call).length)
  return { replay, provider, sent }
})

type GoCardless = Effect.Effect.Success<typeof gocardless>

/** A setup whose page the customer finished: its billing request ready to fulfil. */
const readySetup = ({ provider, replay }: GoCardless) =>
  Effect.gen(function* () {
    const started: MandateSetupStarted = yield* provider.startMandateSetup(setupFor("ada@example.com"), randomUUID())
    yield* replay.finishPage(started)
    return started.id
  })

/** A mandate and a payment on it that failed at the bank. */
const failedPayment = (gc: GoCardless) =>
  Effect.gen(function* () {
    const mandateId = yield* gc.provider.completeMandateSetup(yield* readySetup(gc))
    const payment = yield* gc.provider.createPayment(
      {
        amount: 1440,
        currency: "GBP",
        mandateId,
        description: "CB-000001",
        chargeDate: null,
        invoice: { id: randomUUID(), number: "CB-000001" }
      },
      randomUUID()
    )
    yield* gc.replay.failPayment(payment.id)
    return { mandateId, paymentId: payment.id }
  })

/** Runs `call` with `fault` on its first request of `method path`, the TestClock past any time limit. */
const withFault = <A, E>(gc: GoCardless, method: string, path: string, fault: Fault, call: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    yield* gc.replay.fault(method, path, fault)
    const running = yield* Effect.fork(Effect.exit(call))
    yield* TestClock.adjust(Duration.seconds(30))
    return yield* Fiber.join(running)
  })

const unavailableOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined

/** What the call answered; the test fails with its cause when it did not succeed. */
const answered = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  throw new Error(`The call failed: ${Cause.pretty(exit.cause)}`)
}

describe("an action is sent to GoCardless once; its lost answer is read from the resource", () => {
  it.effect("a retry GoCardless made but answered late, or with a 500, is the payment being collected: sent once", () =>
    Effect.gen(function* () {
      for (const fault of ["lose", "fail"] as const) {
        const gc = yield* gocardless
        const { paymentId } = yield* failedPayment(gc)
        const retry = `/payments/${paymentId}/actions/retry`
        const exit = yield* withFault(gc, "POST", retry, fault, gc.provider.retryPayment(paymentId))
        expect(answered(exit)).toMatchObject({ id: paymentId, status: "pending_submission" })
        expect(yield* gc.sent(`POST ${retry}`)).toBe(1)
        expect(gc.replay.payments.get(paymentId)).toMatchObject({ status: "pending_submission", retries: 1 })
      }
    })
  )

  it.effect(
    "a retry whose connection dropped before GoCardless had it: unavailable, not done; asked again, done once",
    () =>
      Effect.gen(function* () {
        const gc = yield* gocardless
        const { paymentId } = yield* failedPayment(gc)
        const retry = `/payments/${paymentId}/actions/retry`
        const exit = yield* withFault(gc, "POST", retry, "drop", gc.provider.retryPayment(paymentId))
        expect(unavailableOf(exit)).toBeInstanceOf(DirectDebitUnavailable)
        expect(yield* gc.sent(`POST ${retry}`)).toBe(1)
        expect(gc.replay.payments.get(paymentId)).toMatchObject({ status: "failed", retries: 0 })
        // The next billing run asks again: GoCardless retries it once.
        expect((yield* gc.provider.retryPayment(paymentId)).status).toBe("pending_submission")
        expect(gc.replay.payments.get(paymentId)).toMatchObject({ status: "pending_submission", retries: 1 })
      })
  )

  it.effect("a retry GoCardless made for a call that died: asked again, retry_failed is read as the retry made", () =>
    Effect.gen(function* () {
      const gc = yield* gocardless
      const { paymentId } = yield* failedPayment(gc)
      // An earlier process's retry reached GoCardless; that process died before it had the answer.
      gc.replay.answer("POST", new URL(`https://gc.example/payments/${paymentId}/actions/retry`), {}, undefined)
      const again = yield* gc.provider.retryPayment(paymentId)
      expect(again).toMatchObject({ id: paymentId, status: "pending_submission" })
      expect(gc.replay.payments.get(paymentId)).toMatchObject({ retries: 1 })
      // A retry GoCardless truly refuses stays a refusal.
      gc.replay.payments.get(paymentId)!.status = "cancelled"
      expect(yield* Effect.flip(gc.provider.retryPayment(paymentId))).toMatchObject({ reason: "retry_failed" })
    })
  )

  it.effect("a retry GoCardless refused undone with 429 is sent again after its RateLimit-Reset, and done once", () =>
    Effect.gen(function* () {
      const gc = yield* gocardless
      const { paymentId } = yield* failedPayment(gc)
      const retry = `/payments/${paymentId}/actions/retry`
      const until = new Date((yield* TestClock.currentTimeMillis) + 2_000)
      const exit = yield* withFault(gc, "POST", retry, { rateLimitedUntil: until }, gc.provider.retryPayment(paymentId))
      expect(answered(exit)).toMatchObject({ status: "pending_submission" })
      expect(yield* gc.sent(`POST ${retry}`)).toBe(2)
      expect(gc.replay.payments.get(paymentId)).toMatchObject({ retries: 1 })
    })
  )

  it.effect("a fulfil answered late is read as fulfilled; a dropped one is fulfilled once when completed again", () =>
    Effect.gen(function* () {
      const gc = yield* gocardless
      const late = yield* readySetup(gc)
      const fulfil = (id: string) => `/billing_requests/${id}/actions/fulfil`
      const exit = yield* withFault(gc, "POST", fulfil(late), "lose", gc.provider.completeMandateSetup(late))
      expect(answered(exit)).toBe(gc.replay.setups.get(late)?.mandate)
      expect(gc.replay.setups.get(late)?.status).toBe("fulfilled")
      expect(yield* gc.sent(`POST ${fulfil(late)}`)).toBe(1)

      const dropped = yield* readySetup(gc)
      const lost = yield* withFault(gc, "POST", fulfil(dropped), "drop", gc.provider.completeMandateSetup(dropped))
      expect(unavailableOf(lost)).toBeInstanceOf(DirectDebitUnavailable)
      expect(gc.replay.setups.get(dropped)?.status).toBe("ready_to_fulfil")
      const mandate = yield* gc.provider.completeMandateSetup(dropped)
      expect(mandate).toBe(gc.replay.setups.get(dropped)?.mandate)
      expect(gc.replay.seen.filter((s) => s.path === fulfil(dropped))).toHaveLength(1)
    })
  )

  it.effect("a mandate's cancel answered late is the cancelled mandate; a dropped one leaves it live", () =>
    Effect.gen(function* () {
      const gc = yield* gocardless
      const { mandateId } = yield* failedPayment(gc)
      const cancel = `/mandates/${mandateId}/actions/cancel`
      const dropped = yield* withFault(gc, "POST", cancel, "drop", gc.provider.cancelMandate(mandateId))
      expect(unavailableOf(dropped)).toBeInstanceOf(DirectDebitUnavailable)
      expect(gc.replay.mandates.get(mandateId)?.status).toBe("pending_submission")

      const late = yield* withFault(gc, "POST", cancel, "lose", gc.provider.cancelMandate(mandateId))
      expect(answered(late)).toMatchObject({ id: mandateId, status: "cancelled" })
      expect(gc.replay.seen.filter((s) => s.path === cancel)).toHaveLength(1)
      expect(yield* gc.sent(`POST ${cancel}`)).toBe(2)
    })
  )

  it.effect("a setup's cancel answered with a 500 after GoCardless cancelled it is done, sent once", () =>
    Effect.gen(function* () {
      const gc = yield* gocardless
      const started = yield* gc.provider.startMandateSetup(setupFor("ada@example.com"), randomUUID())
      const cancel = `/billing_requests/${started.id}/actions/cancel`
      const exit = yield* withFault(gc, "POST", cancel, "fail", gc.provider.cancelMandateSetup(started.id))
      answered(exit)
      expect(gc.replay.setups.get(started.id)?.status).toBe("cancelled")
      expect(yield* gc.sent(`POST ${cancel}`)).toBe(1)
    })
  )
})

/** Every use case over in-memory ports, GoCardless the adapter over `replay`, the Clock port on the TestClock. */
const billingOver = (replay: Effect.Effect.Success<typeof recordedGoCardlessClient>) =>
  UseCasesLive.pipe(
    Layer.provideMerge(
      goCardlessDirectDebitOver({
        baseUrl: "https://api-sandbox.gocardless.com",
        accessToken: Redacted.make("sandbox_t")
      }).pipe(Layer.provide(replay.layer))
    ),
    Layer.provideMerge(ClockOfEffect),
    Layer.provideMerge(MemoryPorts),
    Layer.provideMerge(identityVerifierFake({}))
  )

const START = new Date("2026-11-21T09:00:00.000Z")

describe("the billing run over GoCardless, when the answer to its retry is lost", () => {
  it.effect(
    "answered late: the invoice is Pending again, retried once, never WaitingForMandate; dropped: left Failed, and the next run retries it once",
    () =>
      Effect.gen(function* () {
        const replay = yield* recordedGoCardlessClient
        yield* Effect.gen(function* () {
          yield* TestClock.setTime(START.getTime())
          const user = yield* (yield* Users).create({ email: Email.make("ada@example.com"), name: "Ada Lovelace" })
          const mandates = yield* Mandates
          const setup = yield* mandates
            .setup({ successRedirectUrl: "https://app.cisbook.example/done" })
            .pipe(asUser(user))
          yield* replay.finishPage({ id: setup.redirectFlowId, redirectUrl: setup.redirectUrl, expiresAt: START })
          const reference = (yield* mandates.complete(setup).pipe(asUser(user))).reference!
          const repo = yield* BillingInvoiceRepo
          const { id } = yield* repo.insert(
            draftInvoice(
              { id: BillingInvoiceId.make(randomUUID()), userId: user.id, issueDate: "2026-11-01" },
              [
                {
                  returnId: MonthlyReturnId.make(randomUUID()),
                  tenantId: TenantId.make(randomUUID()),
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
          yield* repo.recordCollection(user.id, id, waitingForMandate, true)
          yield* (yield* WaitingInvoices).putForward(user.id, reference)
          const stored = Effect.map(repo.find(user.id, id), (found) => Option.getOrThrow(found).invoice)
          const payment = (yield* stored).paymentReference!
          const retry = `/payments/${payment}/actions/retry`
          /** The bank refuses the payment, and GoCardless's event says so (as of the clock's time). */
          const fails = Effect.gen(function* () {
            yield* replay.failPayment(payment)
            const now = new Date(yield* TestClock.currentTimeMillis)
            expect(yield* repo.movePaymentStatus(yield* stored, "Pending", "Failed", now)).toBe(true)
          })
          const run = (date: string, fault?: Fault) =>
            Effect.gen(function* () {
              if (fault !== undefined) yield* replay.fault("POST", retry, fault)
              const running = yield* Effect.fork(Effect.flatMap(BillingRun, (billing) => billing.run(date)))
              yield* TestClock.adjust(Duration.seconds(30))
              return (yield* Fiber.join(running)).collectedAgain.map((c) => [c.outcome, c.reason])
            })

          yield* fails
          expect(yield* run("2026-11-24", "lose")).toEqual([["Retried", "retry 1 of 3"]])
          expect(yield* stored).toMatchObject({ paymentStatus: "Pending", paymentRetries: 1 })
          expect(replay.payments.get(payment)).toMatchObject({ status: "pending_submission", retries: 1 })
          expect(yield* run("2026-11-24")).toEqual([])
          expect(replay.payments.get(payment)?.retries).toBe(1)

          yield* fails
          const [[outcome]] = (yield* run("2026-11-28", "drop")) as [[string, string]]
          expect(outcome).toBe("Unreached")
          expect(yield* stored).toMatchObject({ paymentStatus: "Failed", paymentRetries: 1 })
          expect(replay.payments.get(payment)).toMatchObject({ status: "failed", retries: 1 })
          expect(yield* run("2026-11-28")).toEqual([["Retried", "retry 2 of 3"]])
          expect(replay.payments.get(payment)).toMatchObject({ status: "pending_submission", retries: 2 })
          // Three retries were sent, one of them dropped before GoCardless had it; two were done.
          expect(yield* Effect.map(replay.sent, (all) => all.filter((c) => c === `POST ${retry}`).length)).toBe(3)
        }).pipe(Effect.provide(billingOver(replay)))
      })
  )
})
