import { Effect } from "effect"
import { invalidState, failure, validationFailed } from "../SandboxAnswer.js"
import { type Query, queryValues } from "../SandboxPaging.js"
import type { Resource } from "../SandboxStore.js"
import {
  asObject,
  CREDITOR,
  cancellablePayment,
  liveMandate,
  type SandboxResources,
  text
} from "../SandboxResources.js"

/** The most times GoCardless retries one payment ("Payments can be retried up to 3 times"). */
const MAX_RETRIES = 3

/** Payments: created on a live mandate, read, listed, cancelled and retried. */
export const payments = ({
  create,
  filtersOf,
  find,
  get,
  listed,
  moved,
  record,
  shown,
  shownAll,
  store
}: SandboxResources) => {
  const createPayment = (body: unknown, key: string | undefined) =>
    store.transaction(
      Effect.gen(function* () {
        const payment = asObject(asObject(body)["payments"])
        const amount = Number(payment["amount"])
        const mandateId = text(asObject(payment["links"])["mandate"])
        const chargeDate = text(payment["charge_date"])
        const problems = [
          ...(!Number.isInteger(amount) || amount < 1
            ? [{ field: "amount", message: "must be a whole number of pence, at least 1" }]
            : []),
          ...(payment["currency"] !== "GBP" ? [{ field: "currency", message: "must be GBP for a Bacs mandate" }] : []),
          ...(mandateId === undefined ? [{ field: "links.mandate", message: "is required" }] : [])
        ]
        if (problems.length > 0 || mandateId === undefined) return validationFailed(problems, "/payments")
        const mandate = yield* store.load("mandates", mandateId)
        if (mandate === undefined)
          return validationFailed([{ field: "links.mandate", message: "does not exist" }], "/payments")
        if (!liveMandate.includes(String(mandate["status"]))) {
          return invalidState(
            "mandate_is_inactive",
            `The mandate is ${String(mandate["status"])}: payments cannot be created on it`
          )
        }
        const earliest = String(mandate["next_possible_charge_date"])
        if (chargeDate !== undefined && chargeDate < earliest) {
          return validationFailed(
            [
              {
                field: "charge_date",
                message: `must be on or after the mandate's next_possible_charge_date (${earliest})`
              }
            ],
            "/payments"
          )
        }
        return yield* create(
          "payments",
          "PM",
          key,
          (id, now) => ({
            id,
            created_at: now.toISOString(),
            charge_date: chargeDate ?? earliest,
            amount,
            amount_refunded: 0,
            description: text(payment["description"]) ?? null,
            currency: "GBP",
            status: "pending_submission",
            reference: null,
            scheme: "bacs",
            app_fee: null,
            faster_ach: false,
            fx: { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null },
            metadata: asObject(payment["metadata"]),
            // Success+: whether GoCardless may retry a failure itself (see payment_failed_will_retry).
            retry_if_possible: payment["retry_if_possible"] === true,
            links: { creditor: CREDITOR, mandate: mandateId }
          }),
          (resource) => [{ resourceType: "payments", resource, action: "created" }]
        )
      })
    )

  /**
   * As GoCardless: only a failed payment whose mandate can still collect, at most 3 times, else
   * 422 `invalid_state` `retry_failed`. Retried, it is `pending_submission` again
   * (`resubmission_requested`).
   */
  const retryPayment = (id: string) =>
    find("payments", id, (payment) =>
      Effect.gen(function* () {
        const retries = Number(payment._internal?.["retries"] ?? 0)
        const mandate = yield* store.load("mandates", text(asObject(payment["links"])["mandate"]) ?? "")
        const mandateStatus = String(mandate?.["status"])
        const why =
          payment["status"] !== "failed"
            ? `this payment is ${String(payment["status"])}, not failed`
            : !liveMandate.includes(mandateStatus)
              ? `its mandate is ${mandateStatus}`
              : retries >= MAX_RETRIES
                ? `it was retried ${MAX_RETRIES} times already`
                : null
        if (why !== null) return invalidState("retry_failed", `The payment could not be retried: ${why}`)
        const retried: Resource = {
          ...payment,
          status: "pending_submission",
          _internal: { ...payment._internal, retries: retries + 1 }
        }
        yield* store.save(retried)
        yield* record([{ resourceType: "payments", resource: retried, action: "resubmission_requested" }])
        return shown("payments", retried)
      })
    )

  const cancelPayment = (id: string) =>
    find("payments", id, (payment) =>
      Effect.gen(function* () {
        if (!cancellablePayment.includes(String(payment["status"]))) {
          return failure(422, "invalid_state", `A payment that is ${String(payment["status"])} cannot be cancelled`, [
            {
              reason: "cancellation_failed",
              message: `A payment that is ${String(payment["status"])} cannot be cancelled`
            }
          ])
        }
        yield* record([yield* moved("payments", payment, "cancelled")])
        return shown("payments", { ...payment, status: "cancelled" })
      })
    )

  const listPayments = (query: Query) =>
    listed("payments", query, (page) =>
      Effect.gen(function* () {
        const filters = filtersOf(query, { mandate: ["links", "mandate"], status: ["status"] })
        const customers = queryValues(query, "customer")
        if (customers !== undefined) {
          // A payment links to its mandate, not its customer: through the customer's mandates.
          const mandates = yield* store.mandatesOfCustomer(customers)
          if (mandates.length === 0) return { items: [], cursors: { before: null, after: null } }
          filters.push({ path: ["links", "mandate"], values: mandates })
        }
        return shownAll(yield* store.list("payments", filters, page))
      })
    )

  return { createPayment, getPayment: get("payments"), listPayments, cancelPayment, retryPayment } as const
}
