import {
  CANCELLATION_FAILED,
  DirectDebit,
  DirectDebitRefused,
  type NewMandateSetup,
  type ProviderMandate,
  type ProviderPayment,
  RETRY_FAILED,
  SETUP_CANCELLED,
  SETUP_NOT_FINISHED
} from "@cisbook/core/billing/mandates/DirectDebit"
import { flowExpiry } from "@cisbook/core/billing/mandates/MandateFlow"
import { Clock } from "@cisbook/core/system/Clock"
import { Effect, Layer, Ref } from "effect"

interface Flow {
  readonly request: NewMandateSetup
  readonly finished: boolean
  readonly cancelled: boolean
  readonly mandateId: string | null
}

interface State {
  readonly flows: ReadonlyMap<string, Flow>
  readonly mandates: ReadonlyMap<string, ProviderMandate>
  readonly payments: ReadonlyMap<string, ProviderPayment>
  /** How many times each payment was retried (GoCardless allows 3). */
  readonly retries: ReadonlyMap<string, number>
  /** Idempotency key → the id the first create under it made. */
  readonly keys: ReadonlyMap<string, string>
  readonly created: number
}

const empty: State = {
  flows: new Map(),
  mandates: new Map(),
  payments: new Map(),
  retries: new Map(),
  keys: new Map(),
  created: 0
}

/** The mandate statuses GoCardless still collects on. */
const LIVE_MANDATE = ["pending_customer_approval", "pending_submission", "submitted", "active"]

/** The most times GoCardless retries one payment. */
const MAX_RETRIES = 3

/** A payment collected or being collected: what a retry leads to, answered as it is. */
const COLLECTING = ["pending_customer_approval", "pending_submission", "submitted", "confirmed", "paid_out"]

const refused = (reason: string, message: string) => Effect.fail(new DirectDebitRefused({ reason, message }))

/**
 * A provider in memory with GoCardless's rules as the service relies on them: a refused email
 * (local part beginning `refuse`), setups completed only after the customer finished the page
 * within the flow's 7 days, idempotent creates, mandates cancelled with their pending payments, a
 * failed payment retried at most 3 times while its mandate can collect (one being collected is
 * answered as it is, as the port says; else `retry_failed`).
 * Tests steer it through the DirectDebitControl service.
 */
export class DirectDebitControl extends Effect.Service<DirectDebitControl>()("testkit/DirectDebitControl", {
  effect: Effect.map(Ref.make(empty), (state) => ({
    state,
    /** The customer filled in the hosted page of this setup. */
    finish: (flowId: string) =>
      Ref.update(state, (s) => {
        const flow = s.flows.get(flowId)
        return flow && !flow.cancelled ? { ...s, flows: new Map(s.flows).set(flowId, { ...flow, finished: true }) } : s
      }),
    /** Moves a mandate as a scenario simulator would. */
    setMandateStatus: (mandateId: string, status: string) =>
      Ref.update(state, (s) => {
        const mandate = s.mandates.get(mandateId)
        return mandate ? { ...s, mandates: new Map(s.mandates).set(mandateId, { ...mandate, status }) } : s
      }),
    /** Moves a payment as a scenario simulator would. */
    setPaymentStatus: (paymentId: string, status: string) =>
      Ref.update(state, (s) => {
        const payment = s.payments.get(paymentId)
        return payment ? { ...s, payments: new Map(s.payments).set(paymentId, { ...payment, status }) } : s
      }),
    /** Replaces a mandate as GoCardless's `mandate_replaced` does: a new one on the same bank account, the old cancelled; the new id. */
    replaceMandate: (mandateId: string) =>
      Ref.modify(state, (s): [string, State] => {
        const old = s.mandates.get(mandateId)
        if (old === undefined) return ["", s]
        const id = `MD${String(s.created + 1).padStart(10, "0")}`
        return [
          id,
          {
            ...s,
            created: s.created + 1,
            mandates: new Map(s.mandates)
              .set(mandateId, { ...old, status: "cancelled", newMandateId: id })
              .set(id, { ...old, id, status: "active" })
          }
        ]
      }),
    /** How many mandate setups were started. */
    flowsCreated: Effect.map(Ref.get(state), (s) => s.flows.size)
  }))
}) {}

export const DirectDebitFake = Layer.effect(
  DirectDebit,
  Effect.map(Effect.all([DirectDebitControl, Clock]), ([{ state }, clock]) => {
    const nextId = (prefix: string) =>
      Ref.modify(state, (s) => [
        `${prefix}${String(s.created + 1).padStart(10, "0")}`,
        { ...s, created: s.created + 1 }
      ])
    const mandate = (id: string) =>
      Effect.flatMap(Ref.get(state), (s) => {
        const found = s.mandates.get(id)
        return found ? Effect.succeed(found) : refused("resource_not_found", "Resource not found")
      })
    const payment = (id: string) =>
      Effect.flatMap(Ref.get(state), (s) => {
        const found = s.payments.get(id)
        return found ? Effect.succeed(found) : refused("resource_not_found", "Resource not found")
      })
    const savePayment = (p: ProviderPayment) =>
      Ref.update(state, (s) => ({ ...s, payments: new Map(s.payments).set(p.id, p) }))

    return DirectDebit.of({
      startMandateSetup: (request, key) =>
        Effect.gen(function* () {
          if (/^refuse/i.test(request.prefilledCustomer.email)) {
            return yield* refused("validation_failed", "prefilled_customer.email has been refused by the sandbox")
          }
          const earlier = (yield* Ref.get(state)).keys.get(`setup:${key}`)
          const id = earlier ?? (yield* nextId("BRQ"))
          if (earlier === undefined) {
            yield* Ref.update(state, (s) => ({
              ...s,
              flows: new Map(s.flows).set(id, { request, finished: false, cancelled: false, mandateId: null }),
              keys: new Map(s.keys).set(`setup:${key}`, id)
            }))
          }
          return { id, redirectUrl: `https://pay.example/flow/${id}`, expiresAt: flowExpiry(yield* clock.now) }
        }),
      completeMandateSetup: (id) =>
        Effect.gen(function* () {
          const flow = (yield* Ref.get(state)).flows.get(id)
          if (flow === undefined) return yield* refused("resource_not_found", "Resource not found")
          if (flow.mandateId !== null) return flow.mandateId
          if (flow.cancelled) return yield* refused(SETUP_CANCELLED, "The billing request is cancelled")
          if (!flow.finished) {
            return yield* refused(SETUP_NOT_FINISHED, "The customer has not yet completed the payment pages")
          }
          const mandateId = yield* nextId("MD")
          const accountId = yield* nextId("BA")
          yield* Ref.update(state, (s) => ({
            ...s,
            flows: new Map(s.flows).set(id, { ...flow, mandateId }),
            mandates: new Map(s.mandates).set(mandateId, {
              id: mandateId,
              status: "pending_submission",
              nextPossibleChargeDate: "2026-11-26",
              customerBankAccountId: accountId,
              newMandateId: null
            })
          }))
          return mandateId
        }),
      cancelMandateSetup: (id) =>
        Effect.gen(function* () {
          const flow = (yield* Ref.get(state)).flows.get(id)
          if (flow === undefined) return yield* refused("resource_not_found", "Resource not found")
          if (flow.mandateId !== null || flow.cancelled) {
            return yield* refused("billing_request_not_cancellable", "The billing request cannot be cancelled")
          }
          yield* Ref.update(state, (s) => ({ ...s, flows: new Map(s.flows).set(id, { ...flow, cancelled: true }) }))
        }),
      getMandate: mandate,
      cancelMandate: (id) =>
        Effect.gen(function* () {
          const found = yield* mandate(id)
          if (!["pending_submission", "submitted", "active"].includes(found.status)) {
            return yield* refused(CANCELLATION_FAILED, `A mandate that is ${found.status} cannot be cancelled`)
          }
          const cancelled = { ...found, status: "cancelled" }
          yield* Ref.update(state, (s) => ({
            ...s,
            mandates: new Map(s.mandates).set(id, cancelled),
            payments: new Map(
              [...s.payments].map(([pid, p]) => [
                pid,
                p.mandateId === id && p.status === "pending_submission" ? { ...p, status: "cancelled" } : p
              ])
            )
          }))
          return cancelled
        }),
      getBankAccount: () =>
        Effect.succeed({ accountHolderName: "Ada Lovelace", bankName: "BARCLAYS BANK PLC", accountNumberEnding: "11" }),
      createPayment: (request, key) =>
        Effect.gen(function* () {
          const on = yield* mandate(request.mandateId)
          const earlier = (yield* Ref.get(state)).keys.get(`payment:${key}`)
          if (earlier !== undefined) return yield* payment(earlier)
          if (!["pending_submission", "submitted", "active"].includes(on.status)) {
            return yield* refused("mandate_is_inactive", `The mandate is ${on.status}`)
          }
          const created: ProviderPayment = {
            id: yield* nextId("PM"),
            status: "pending_submission",
            amount: request.amount,
            chargeDate: request.chargeDate ?? on.nextPossibleChargeDate,
            mandateId: request.mandateId
          }
          yield* savePayment(created)
          yield* Ref.update(state, (s) => ({ ...s, keys: new Map(s.keys).set(`payment:${key}`, created.id) }))
          return created
        }),
      getPayment: payment,
      listPayments: (mandateId) =>
        Effect.map(Ref.get(state), (s) =>
          [...s.payments.values()].filter((p) => p.mandateId === mandateId).sort((a, b) => b.id.localeCompare(a.id))
        ),
      retryPayment: (id) =>
        Effect.gen(function* () {
          const found = yield* payment(id)
          const on = yield* mandate(found.mandateId)
          const retried = (yield* Ref.get(state)).retries.get(id) ?? 0
          if (COLLECTING.includes(found.status)) return found
          if (found.status !== "failed" || !LIVE_MANDATE.includes(on.status) || retried >= MAX_RETRIES) {
            return yield* refused(RETRY_FAILED, `This payment cannot be retried (it is ${found.status})`)
          }
          const again = { ...found, status: "pending_submission" }
          yield* savePayment(again)
          yield* Ref.update(state, (s) => ({ ...s, retries: new Map(s.retries).set(id, retried + 1) }))
          return again
        })
    })
  })
).pipe(Layer.provideMerge(DirectDebitControl.Default))
