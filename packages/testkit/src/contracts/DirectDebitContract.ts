import {
  CANCELLATION_FAILED,
  DirectDebit,
  type NewMandateSetup,
  type NewPayment,
  RETRY_FAILED,
  SETUP_CANCELLED,
  SETUP_NOT_FINISHED
} from "@cisbook/core/billing/mandates/DirectDebit"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { randomUUID } from "node:crypto"
import { DirectDebitDriver } from "../DirectDebitDriver.js"

/** A mandate setup for a new user, its customer prefilled with `email`. */
export const setupFor = (email: string): NewMandateSetup => ({
  userId: randomUUID(),
  successRedirectUrl: "https://app.cisbook.example/billing/done?from=setup",
  prefilledCustomer: {
    givenName: "Ada",
    familyName: "Lovelace",
    companyName: "Lovelace Builders Ltd",
    email,
    addressLine1: "1 Analytical Row",
    addressLine2: null,
    addressLine3: null,
    postalCode: "NW1 6XE",
    countryCode: "GB"
  }
})

/** A setup the customer finished, completed: its mandate's id. */
const aMandate = Effect.gen(function* () {
  const provider = yield* DirectDebit
  const started = yield* provider.startMandateSetup(setupFor("ada@example.com"), randomUUID())
  yield* (yield* DirectDebitDriver).finishPage(started)
  return yield* provider.completeMandateSetup(started.id)
})

const paymentOn = (mandateId: string, number: string): NewPayment => ({
  amount: 1440,
  currency: "GBP",
  mandateId,
  description: number,
  chargeDate: null,
  invoice: { id: randomUUID(), number }
})

const refusal = <A, R>(effect: Effect.Effect<A, { readonly reason: string }, R>) =>
  Effect.map(Effect.flip(effect), (refused) => refused.reason)

/**
 * The direct debit provider port as the service relies on it, GoCardless's rules: run against
 * the memory fake, the GoCardless adapter over the service's own sandbox, and the adapter over
 * answers recorded from GoCardless's published examples. Ids are compared with what the provider
 * answered, never assumed.
 */
export const directDebitContract = (name: string, provider: Layer.Layer<DirectDebit | DirectDebitDriver, unknown>) =>
  describe(`DirectDebit port contract: ${name}`, () =>
    layer(provider, { timeout: "60 seconds" })((it) => {
      it.effect("a setup is completed only once the customer finished its page, then answers the same mandate", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const started = yield* provider.startMandateSetup(setupFor("ada@example.com"), randomUUID())
          expect(started.id).toMatch(/^BRQ/)
          expect(started.redirectUrl).toMatch(/^https?:\/\//)
          // A billing request flow can be completed for 7 days (GoCardless's expires_at), not 30 minutes.
          const lifetime = started.expiresAt.getTime() - Date.now()
          expect(lifetime).toBeGreaterThan(6 * 24 * 3600_000)
          expect(yield* refusal(provider.completeMandateSetup(started.id))).toBe(SETUP_NOT_FINISHED)
          yield* (yield* DirectDebitDriver).finishPage(started)
          const mandateId = yield* provider.completeMandateSetup(started.id)
          expect(mandateId).toMatch(/^MD/)
          expect(yield* provider.completeMandateSetup(started.id)).toBe(mandateId)
          const mandate = yield* provider.getMandate(mandateId)
          expect(mandate).toMatchObject({ id: mandateId, status: "pending_submission" })
          expect(mandate.nextPossibleChargeDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
          const account = yield* provider.getBankAccount(mandate.customerBankAccountId)
          expect(account.accountHolderName).not.toBe("")
          expect(account.accountNumberEnding).toMatch(/^\d{2,4}$/)
        })
      )

      it.effect("a setup started again under the same key is the same setup", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const key = randomUUID()
          const first = yield* provider.startMandateSetup(setupFor("ada@example.com"), key)
          const again = yield* provider.startMandateSetup(setupFor("ada@example.com"), key)
          expect(again.id).toBe(first.id)
        })
      )

      it.effect("refuses a setup for an email the provider refuses, with its reason", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const refused = yield* Effect.flip(provider.startMandateSetup(setupFor("refuse-7@example.com"), randomUUID()))
          expect(refused).toMatchObject({ _tag: "DirectDebitRefused", reason: "validation_failed" })
          expect(refused.message).toMatch(/email/)
        })
      )

      it.effect("a cancelled setup can no longer be completed", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const started = yield* provider.startMandateSetup(setupFor("ada@example.com"), randomUUID())
          yield* provider.cancelMandateSetup(started.id)
          expect(yield* refusal(provider.completeMandateSetup(started.id))).toBe(SETUP_CANCELLED)
        })
      )

      it.effect("collects on the mandate: one payment per key, listed with the mandate's", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const mandateId = yield* aMandate
          const key = randomUUID()
          const request = {
            amount: 1440,
            currency: "GBP" as const,
            mandateId,
            description: "CB-000001",
            chargeDate: null,
            invoice: { id: randomUUID(), number: "CB-000001" }
          }
          const payment = yield* provider.createPayment(request, key)
          expect(payment).toMatchObject({ status: "pending_submission", amount: 1440, mandateId })
          expect(payment.id).toMatch(/^PM/)
          expect((yield* provider.createPayment(request, key)).id).toBe(payment.id)
          expect(yield* provider.getPayment(payment.id)).toEqual(payment)
          expect((yield* provider.listPayments(mandateId)).map((p) => p.id)).toEqual([payment.id])
        })
      )

      it.effect("cancels a mandate with its pending payments; a second cancel is cancellation_failed", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const mandateId = yield* aMandate
          const payment = yield* provider.createPayment(
            {
              amount: 240,
              currency: "GBP",
              mandateId,
              description: "CB-000002",
              chargeDate: null,
              invoice: { id: randomUUID(), number: "CB-000002" }
            },
            randomUUID()
          )
          expect((yield* provider.cancelMandate(mandateId)).status).toBe("cancelled")
          expect((yield* provider.getMandate(mandateId)).status).toBe("cancelled")
          expect((yield* provider.getPayment(payment.id)).status).toBe("cancelled")
          expect(yield* refusal(provider.cancelMandate(mandateId))).toBe(CANCELLATION_FAILED)
        })
      )

      it.effect(
        "retries a failed payment at most 3 times; a payment being collected is answered as it is; else retry_failed",
        () =>
          Effect.gen(function* () {
            const provider = yield* DirectDebit
            const driver = yield* DirectDebitDriver
            const mandateId = yield* aMandate
            const payment = yield* provider.createPayment(paymentOn(mandateId, "CB-000003"), randomUUID())
            // Not failed: being collected already (as after a retry whose answer was lost), nothing is done.
            expect(yield* provider.retryPayment(payment.id)).toMatchObject({
              id: payment.id,
              status: "pending_submission"
            })
            for (let retry = 1; retry <= 3; retry++) {
              yield* driver.failPayment(payment.id)
              expect((yield* provider.getPayment(payment.id)).status).toBe("failed")
              const retried = yield* provider.retryPayment(payment.id)
              expect(retried).toMatchObject({ id: payment.id, status: "pending_submission", amount: 1440, mandateId })
            }
            yield* driver.failPayment(payment.id)
            expect(yield* refusal(provider.retryPayment(payment.id))).toBe(RETRY_FAILED)
            expect((yield* provider.getPayment(payment.id)).status).toBe("failed")
          })
      )

      it.effect("a failed payment whose mandate was cancelled is retry_failed", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const mandateId = yield* aMandate
          const payment = yield* provider.createPayment(paymentOn(mandateId, "CB-000004"), randomUUID())
          yield* (yield* DirectDebitDriver).failPayment(payment.id)
          yield* provider.cancelMandate(mandateId)
          expect(yield* refusal(provider.retryPayment(payment.id))).toBe(RETRY_FAILED)
          expect((yield* provider.getPayment(payment.id)).status).toBe("failed")
        })
      )

      it.effect("lists every payment of a mandate, newest first, however many pages it takes", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          const mandateId = yield* aMandate
          const made = []
          for (const number of ["CB-000005", "CB-000006", "CB-000007"]) {
            made.push((yield* provider.createPayment(paymentOn(mandateId, number), randomUUID())).id)
          }
          expect((yield* provider.listPayments(mandateId)).map((p) => p.id)).toEqual([...made].reverse())
        })
      )

      it.effect("an unknown resource is refused as not found", () =>
        Effect.gen(function* () {
          const provider = yield* DirectDebit
          expect(yield* refusal(provider.getMandate("MD0000NOPE00"))).toBe("resource_not_found")
          expect(yield* refusal(provider.getPayment("PM0000NOPE00"))).toBe("resource_not_found")
        })
      )
    }))
