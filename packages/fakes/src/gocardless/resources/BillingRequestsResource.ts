import { Effect } from "effect"
import { SANDBOX_BANK_NAME } from "../BankDetails.js"
import { invalidState, sandboxId, validationFailed } from "../SandboxAnswer.js"
import { publicView, type Resource } from "../SandboxStore.js"
import { asObject, CREDITOR, ORGANISATION, type SandboxResources, text } from "../SandboxResources.js"

/** Bacs: the first collection is possible some working days after the mandate is set up. */
const FIRST_CHARGE_AFTER_DAYS = 3

const dateOf = (at: Date) => at.toISOString().slice(0, 10)
const addDays = (at: Date, days: number) => new Date(at.getTime() + days * 86_400_000)

/** A billing request's actions as GoCardless lists them, for a mandate request by bank details. */
export const actionsOf = (status: string) => {
  const done = status === "ready_to_fulfil" || status === "fulfilled" ? "completed" : "pending"
  return [
    { type: "collect_customer_details", required: true, completes_actions: [], requires_actions: [], status: done },
    {
      type: "collect_bank_account",
      required: true,
      completes_actions: ["choose_currency"],
      requires_actions: [],
      available_currencies: ["GBP"],
      status: done
    },
    {
      type: "confirm_payer_details",
      required: true,
      completes_actions: [],
      requires_actions: ["collect_customer_details", "collect_bank_account"],
      status: done
    }
  ]
}

/** A billing request's details collected and its fulfilment: by its own routes and by its flow's hosted page. */
export const billingRequestFulfilment = ({ clock, record, store }: SandboxResources) => {
  /** The customer and bank account the hosted page collected, on the billing request's resources. */
  const collect = (request: Resource, flow: Resource, bank: { accountHolderName: string; accountNumber: string }) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const customerId = sandboxId("CU")
      const accountId = sandboxId("BA")
      const prefilled = asObject(flow["prefilled_customer"])
      const customer: Resource = {
        id: customerId,
        created_at: now.toISOString(),
        email: text(prefilled["email"]) ?? null,
        given_name: text(prefilled["given_name"]) ?? null,
        family_name: text(prefilled["family_name"]) ?? null,
        company_name: text(prefilled["company_name"]) ?? null,
        address_line1: text(prefilled["address_line1"]) ?? null,
        address_line2: text(prefilled["address_line2"]) ?? null,
        address_line3: text(prefilled["address_line3"]) ?? null,
        city: text(prefilled["city"]) ?? null,
        region: text(prefilled["region"]) ?? null,
        postal_code: text(prefilled["postal_code"]) ?? null,
        country_code: text(prefilled["country_code"]) ?? "GB",
        language: "en",
        phone_number: null,
        metadata: {}
      }
      const account: Resource = {
        id: accountId,
        created_at: now.toISOString(),
        account_holder_name: bank.accountHolderName,
        account_number_ending: bank.accountNumber.slice(-2),
        account_type: null,
        bank_name: SANDBOX_BANK_NAME,
        country_code: "GB",
        currency: "GBP",
        enabled: true,
        metadata: {},
        links: { customer: customerId }
      }
      yield* store.insert("customers", customer, now)
      yield* store.insert("customer_bank_accounts", account, now)
      return {
        ...request,
        status: "ready_to_fulfil",
        actions: actionsOf("ready_to_fulfil"),
        resources: { customer: publicView(customer), customer_bank_account: publicView(account) },
        links: { ...asObject(request["links"]), customer: customerId, customer_bank_account: accountId }
      } satisfies Resource
    })

  /** Fulfils a billing request whose details were collected: its mandate, `pending_submission`. */
  const fulfilled = (request: Resource) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const links = asObject(request["links"])
      const mandateId = sandboxId("MD")
      const mandate: Resource = {
        id: mandateId,
        created_at: now.toISOString(),
        reference: `CISBOOK-${mandateId.slice(2, 8)}`,
        status: "pending_submission",
        scheme: "bacs",
        next_possible_charge_date: dateOf(addDays(now, FIRST_CHARGE_AFTER_DAYS)),
        payments_require_approval: false,
        authorisation_source: "web",
        mandate_type: "bank_debit",
        funds_settlement: "managed",
        consent_type: null,
        consent_parameters: null,
        verified_at: null,
        metadata: asObject(asObject(request["mandate_request"])["metadata"]),
        links: {
          creditor: CREDITOR,
          customer: String(links["customer"]),
          customer_bank_account: String(links["customer_bank_account"])
        }
      }
      yield* store.insert("mandates", mandate, now)
      const done: Resource = {
        ...request,
        status: "fulfilled",
        actions: actionsOf("fulfilled"),
        mandate_request: { ...asObject(request["mandate_request"]), links: { mandate: mandateId } },
        links: { ...links, mandate_request_mandate: mandateId }
      }
      yield* store.save(done)
      yield* record([
        { resourceType: "mandates", resource: mandate, action: "created" },
        {
          resourceType: "billing_requests",
          resource: done,
          action: "fulfilled",
          links: { mandate_request_mandate: mandateId, customer: String(links["customer"]) }
        }
      ])
      return done
    })

  return { collect, fulfilled } as const
}

/** Billing requests: a mandate asked for, collected by a flow, then fulfilled (or cancelled). */
export const billingRequests = (resources: SandboxResources) => {
  const { create, find, get, record, shown, store } = resources
  const { fulfilled } = billingRequestFulfilment(resources)

  const createBillingRequest = (body: unknown, key: string | undefined) => {
    const request = asObject(asObject(body)["billing_requests"])
    const mandateRequest = asObject(request["mandate_request"])
    const problems = [
      ...(request["mandate_request"] === undefined ? [{ field: "mandate_request", message: "is required" }] : []),
      ...(mandateRequest["scheme"] !== undefined && mandateRequest["scheme"] !== "bacs"
        ? [{ field: "mandate_request.scheme", message: "must be bacs in this sandbox" }]
        : []),
      ...(mandateRequest["currency"] !== "GBP" ? [{ field: "mandate_request.currency", message: "must be GBP" }] : [])
    ]
    if (problems.length > 0) return Effect.succeed(validationFailed(problems, "/billing_requests"))
    return create(
      "billing_requests",
      "BRQ",
      key,
      (id, now) => ({
        id,
        created_at: now.toISOString(),
        status: "pending",
        mandate_request: {
          currency: "GBP",
          scheme: "bacs",
          verify: text(mandateRequest["verify"]) ?? "recommended",
          description: text(mandateRequest["description"]) ?? null,
          metadata: asObject(mandateRequest["metadata"]),
          links: {}
        },
        payment_request: null,
        subscription_request: null,
        instalment_schedule_request: null,
        purpose_code: null,
        payment_purpose_code: null,
        payment_context_code: null,
        metadata: asObject(request["metadata"]),
        fallback_enabled: false,
        fallback_occurred: false,
        actions: actionsOf("pending"),
        resources: {},
        links: { creditor: CREDITOR, organisation: ORGANISATION, mandate_request: sandboxId("MRQ") }
      }),
      (resource) => [{ resourceType: "billing_requests", resource, action: "created" }]
    )
  }

  const fulfilBillingRequest = (id: string) =>
    find("billing_requests", id, (request) =>
      request["status"] === "ready_to_fulfil"
        ? Effect.map(fulfilled(request), (done) => shown("billing_requests", done))
        : Effect.succeed(
            invalidState(
              "billing_request_not_ready_to_fulfil",
              `A billing request that is ${String(request["status"])} cannot be fulfilled`
            )
          )
    )

  const cancelBillingRequest = (id: string) =>
    find("billing_requests", id, (request) =>
      Effect.gen(function* () {
        if (!["pending", "ready_to_fulfil"].includes(String(request["status"]))) {
          return invalidState(
            "billing_request_not_cancellable",
            `A billing request that is ${String(request["status"])} cannot be cancelled`
          )
        }
        const cancelled: Resource = { ...request, status: "cancelled", actions: actionsOf("cancelled") }
        yield* store.save(cancelled)
        yield* record([{ resourceType: "billing_requests", resource: cancelled, action: "cancelled" }])
        return shown("billing_requests", cancelled)
      })
    )

  return {
    createBillingRequest,
    getBillingRequest: get("billing_requests"),
    fulfilBillingRequest,
    cancelBillingRequest
  } as const
}
