import { Clock } from "@cisbook/core/system/Clock"
import { Context, Effect, Layer } from "effect"
import { type BankDetailsForm, checkBankDetails, SANDBOX_BANK_NAME } from "./BankDetails.js"
import {
  failure,
  invalidState,
  notFound,
  ok,
  type SandboxAnswer,
  sandboxId,
  validationFailed
} from "./SandboxAnswer.js"
import {
  CANCELLED_WITH_MANDATE,
  type Change,
  eventsOf,
  RETRIED_BY_GOCARDLESS,
  WILL_ATTEMPT_RETRY,
  webhooksOf
} from "./SandboxEvents.js"
import { type Page, pageOf, type Paged, type Query, queryValues } from "./SandboxPaging.js"
import { type Kind, type ListFilter, makeSandboxStore, publicView, type Resource } from "./SandboxStore.js"

/** A flow's page can be used for 30 minutes after it was created (the service's setups expire then). */
const FLOW_LIFETIME_MS = 30 * 60 * 1000
/** Bacs: the first collection is possible some working days after the mandate is set up. */
const FIRST_CHARGE_AFTER_DAYS = 3

type Json = Record<string, unknown>

const asObject = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {}
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

const isHttpUrl = (s: string | undefined) => {
  if (s === undefined) return false
  try {
    return ["http:", "https:"].includes(new URL(s).protocol)
  } catch {
    return false
  }
}

const dateOf = (at: Date) => at.toISOString().slice(0, 10)
const addDays = (at: Date, days: number) => new Date(at.getTime() + days * 86_400_000)

/** The way a resource goes when all is well; a scenario walks it along this to where it ends. */
const lifecycle: Record<"mandates" | "payments", ReadonlyArray<string>> = {
  mandates: ["pending_submission", "submitted", "active"],
  payments: ["pending_submission", "submitted", "confirmed", "paid_out"]
}

/** Where a resource must have been before it can end in a status (a payment is paid out before it is charged back). */
const reachedThrough: Record<string, string> = {
  active: "submitted",
  failed: "submitted",
  confirmed: "submitted",
  paid_out: "confirmed",
  charged_back: "paid_out"
}

/** The statuses a resource passes through from `from` to `to`, each an event, as GoCardless's simulators do. */
const stepsOf = (
  kind: "mandates" | "payments",
  from: string,
  to: string,
  through: string | null | undefined = reachedThrough[to]
): ReadonlyArray<string> => {
  const path = lifecycle[kind]
  if (through === null) return [to]
  const start = path.indexOf(from)
  const end = through === undefined ? -1 : path.indexOf(through)
  return [...path.slice(start + 1, end + 1), to]
}

/**
 * Scenario simulators: the statuses a resource may be in, the one it moves to (through the
 * statuses before it, unless `through` says otherwise), the event's action when it is not the
 * status, its details, and where GoCardless moves it back at once (a failure it will retry).
 */
const scenarios: Record<
  string,
  {
    readonly kind: "mandates" | "payments"
    readonly from: ReadonlyArray<string>
    readonly to: string
    readonly through?: string | null
    readonly action?: string
    readonly details?: Change["details"]
    readonly back?: { readonly status: string; readonly action: string }
  }
> = {
  mandate_activated: { kind: "mandates", from: ["pending_submission", "submitted"], to: "active" },
  mandate_reinstated: {
    kind: "mandates",
    from: ["cancelled", "expired"],
    to: "active",
    through: null,
    action: "reinstated"
  },
  payment_failed_will_retry: {
    kind: "payments",
    from: ["pending_submission", "submitted"],
    to: "failed",
    details: WILL_ATTEMPT_RETRY,
    back: { status: "pending_submission", action: "resubmission_requested" }
  },
  payment_late_failure_settled: {
    kind: "payments",
    from: ["pending_submission", "submitted", "confirmed", "paid_out"],
    to: "failed",
    through: "paid_out",
    action: "late_failure_settled"
  },
  mandate_failed: { kind: "mandates", from: ["pending_submission", "submitted"], to: "failed" },
  mandate_expired: { kind: "mandates", from: ["pending_submission", "submitted", "active"], to: "expired" },
  payment_confirmed: { kind: "payments", from: ["pending_submission", "submitted"], to: "confirmed" },
  payment_paid_out: { kind: "payments", from: ["pending_submission", "submitted", "confirmed"], to: "paid_out" },
  payment_failed: { kind: "payments", from: ["pending_submission", "submitted"], to: "failed" },
  payment_charged_back: {
    kind: "payments",
    from: ["pending_submission", "submitted", "confirmed", "paid_out"],
    to: "charged_back"
  }
}

const CREDITOR = "CR000SANDBOX"
const ORGANISATION = "OR000SANDBOX"

/** A billing request's actions as GoCardless lists them, for a mandate request by bank details. */
const actionsOf = (status: string) => {
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

const liveMandate = ["pending_customer_approval", "pending_submission", "submitted", "active"]
const cancellablePayment = ["pending_customer_approval", "pending_submission"]

/** What the hosted page shows for a flow. */
export type FlowPage =
  | { readonly _tag: "Form"; readonly flowId: string; readonly description: string; readonly error: string | null }
  | { readonly _tag: "Gone"; readonly message: string }
  | { readonly _tag: "Done"; readonly message: string }
  | { readonly _tag: "Redirect"; readonly location: string }

/**
 * A GoCardless-compatible sandbox: the subset of GoCardless's API the service uses, with its
 * envelopes, statuses, idempotency keys, lists, events and error bodies, kept in the service's
 * database. Mandates are set up by billing requests and their flows (GoCardless's redirect flows
 * are not served); a flow whose prefilled email's local part begins with `refuse` is refused (422). Every change of a mandate or payment records its events, and the webhook that will
 * tell of them, in the change's transaction.
 */
export class GoCardlessSandbox extends Context.Tag("fakes/GoCardlessSandbox")<
  GoCardlessSandbox,
  Effect.Effect.Success<typeof makeSandbox>
>() {}

const makeSandbox = Effect.gen(function* () {
  const store = yield* makeSandboxStore
  const clock = yield* Clock

  const shown = (kind: Kind, resource: Resource, status = 200) => ok({ [kind]: publicView(resource) }, status)

  const find = (kind: Kind, id: string, answer: (resource: Resource) => Effect.Effect<SandboxAnswer>) =>
    store.transaction(
      Effect.flatMap(store.load(kind, id), (resource) =>
        resource === undefined ? Effect.succeed(notFound()) : answer(resource)
      )
    )

  const get = (kind: Kind) => (id: string) => find(kind, id, (resource) => Effect.succeed(shown(kind, resource)))

  /** Records the events of changes made together, and the webhook that tells of them, in the caller's transaction. */
  const record = (changes: ReadonlyArray<Change>) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const events = eventsOf(changes, now)
      yield* store.recordEvents(events, webhooksOf(events), now)
    })

  /** Moves a resource to a status; the change, for its events. */
  const moved = (
    resourceType: "mandates" | "payments",
    resource: Resource,
    status: string,
    details?: Change["details"],
    action: string = status
  ) =>
    Effect.as(store.save({ ...resource, status }), {
      resourceType,
      resource,
      action,
      ...(details === undefined ? {} : { details })
    } satisfies Change)

  /** A create under an idempotency key: a repeated key answers 409 naming what the first request made. */
  const create = (
    kind: Kind,
    prefix: string,
    key: string | undefined,
    make: (id: string, now: Date) => Resource,
    created: (resource: Resource) => ReadonlyArray<Change> = () => []
  ) =>
    store.transaction(
      Effect.gen(function* () {
        const id = sandboxId(prefix)
        const now = yield* clock.now
        const earlier = key === undefined ? undefined : yield* store.claimKey(kind, key, id, now)
        if (earlier !== undefined) {
          const message = "A resource has already been created with this idempotency key"
          return {
            status: 409,
            body: {
              error: {
                message,
                documentation_url: "https://developer.gocardless.com/api-reference#idempotent_creation_conflict",
                type: "invalid_state",
                request_id: sandboxId("RQ"),
                code: 409,
                errors: [
                  { reason: "idempotent_creation_conflict", message, links: { conflicting_resource_id: earlier } }
                ]
              }
            }
          }
        }
        const resource = make(id, now)
        yield* store.insert(kind, resource, now)
        yield* record(created(resource))
        return shown(kind, resource, 201)
      })
    )

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

  const createBillingRequestFlow = (body: unknown, key: string | undefined, origin: string) =>
    store.transaction(
      Effect.gen(function* () {
        const flow = asObject(asObject(body)["billing_request_flows"])
        const customer = asObject(flow["prefilled_customer"])
        const requestId = text(asObject(flow["links"])["billing_request"])
        const redirectUri = text(flow["redirect_uri"])
        const exitUri = text(flow["exit_uri"])
        const email = text(customer["email"])
        const problems = [
          ...(requestId === undefined ? [{ field: "links.billing_request", message: "is required" }] : []),
          ...(redirectUri !== undefined && !isHttpUrl(redirectUri)
            ? [{ field: "redirect_uri", message: "must be a valid URL" }]
            : []),
          ...(exitUri !== undefined && !isHttpUrl(exitUri)
            ? [{ field: "exit_uri", message: "must be a valid URL" }]
            : []),
          ...(email !== undefined && /^refuse/i.test(email)
            ? [{ field: "prefilled_customer.email", message: "has been refused by the sandbox's refusal rule" }]
            : [])
        ]
        if (problems.length > 0 || requestId === undefined) {
          return validationFailed(problems, "/billing_request_flows")
        }
        const request = yield* store.load("billing_requests", requestId)
        if (request === undefined) {
          return validationFailed(
            [{ field: "links.billing_request", message: "does not exist" }],
            "/billing_request_flows"
          )
        }
        if (!["pending", "ready_to_fulfil"].includes(String(request["status"]))) {
          return invalidState(
            "billing_request_not_pending",
            `A flow cannot be created for a billing request that is ${String(request["status"])}`
          )
        }
        return yield* create(
          "billing_request_flows",
          "BRF",
          key,
          (id, now) => ({
            id,
            created_at: now.toISOString(),
            authorisation_url: `${origin}/flow/${id}`,
            auto_fulfil: flow["auto_fulfil"] !== false,
            redirect_uri: redirectUri ?? null,
            exit_uri: exitUri ?? null,
            expires_at: new Date(now.getTime() + FLOW_LIFETIME_MS).toISOString(),
            language: text(flow["language"]) ?? "en",
            lock_bank_account: flow["lock_bank_account"] === true,
            lock_currency: flow["lock_currency"] === true,
            lock_customer_details: flow["lock_customer_details"] === true,
            customer_details_captured: false,
            prefilled_customer: customer,
            prefilled_bank_account: asObject(flow["prefilled_bank_account"]),
            session_token: text(flow["session_token"]) ?? null,
            show_redirect_buttons: flow["show_redirect_buttons"] === true,
            show_success_redirect_button: flow["show_success_redirect_button"] === true,
            skip_success_screen: flow["skip_success_screen"] === true,
            links: { billing_request: requestId }
          }),
          (resource) => [
            {
              resourceType: "billing_requests",
              resource: request,
              action: "flow_created",
              links: { billing_request_flow: resource.id }
            }
          ]
        )
      })
    )

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

  const cancelMandate = (id: string) =>
    find("mandates", id, (mandate) =>
      Effect.gen(function* () {
        // GoCardless's one reason for a mandate that can no longer be cancelled, already cancelled included.
        if (!liveMandate.includes(String(mandate["status"]))) {
          return invalidState(
            "cancellation_failed",
            `A mandate that is ${String(mandate["status"])} cannot be cancelled`
          )
        }
        const changes = [yield* moved("mandates", mandate, "cancelled")]
        // As at GoCardless: the mandate's payments not yet submitted are cancelled with it.
        for (const payment of yield* store.paymentsOfMandate(id)) {
          if (cancellablePayment.includes(String(payment["status"]))) {
            changes.push(yield* moved("payments", payment, "cancelled", CANCELLED_WITH_MANDATE))
          }
        }
        yield* record(changes)
        return shown("mandates", { ...mandate, status: "cancelled" })
      })
    )

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
            retry_if_possible: false,
            links: { creditor: CREDITOR, mandate: mandateId }
          }),
          (resource) => [{ resourceType: "payments", resource, action: "created" }]
        )
      })
    )

  const retryPayment = (id: string) =>
    find("payments", id, (payment) =>
      Effect.gen(function* () {
        if (payment["status"] !== "failed") {
          return invalidState(
            "payment_not_failed",
            `Only a failed payment can be retried; this one is ${String(payment["status"])}`
          )
        }
        const retried: Resource = { ...payment, status: "pending_submission" }
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

  /** A new mandate on the same bank account; the old one cancelled, pointing at it (`links.new_mandate`). */
  const replaceMandate = (mandateId: string) =>
    find("mandates", mandateId, (old) =>
      Effect.gen(function* () {
        if (!liveMandate.includes(String(old["status"]))) {
          return invalidState(
            "invalid_resource_state",
            `The mandate_replaced scenario cannot run on a mandate that is ${String(old["status"])}`
          )
        }
        const now = yield* clock.now
        const id = sandboxId("MD")
        const replacement: Resource = {
          ...old,
          id,
          created_at: now.toISOString(),
          reference: `CISBOOK-${id.slice(2, 8)}`,
          links: { ...asObject(old["links"]) }
        }
        yield* store.insert("mandates", replacement, now)
        const replaced: Resource = {
          ...old,
          status: "cancelled",
          links: { ...asObject(old["links"]), new_mandate: id }
        }
        yield* store.save(replaced)
        yield* record([
          { resourceType: "mandates", resource: replacement, action: "created" },
          { resourceType: "mandates", resource: replaced, action: "replaced", links: { new_mandate: id } }
        ])
        return ok({ scenario_simulators: { id: "mandate_replaced" } })
      })
    )

  const runScenario = (type: string, body: unknown) => {
    const scenario = scenarios[type]
    const resourceId = text(asObject(asObject(asObject(body)["data"])["links"])["resource"])
    if (scenario === undefined && type !== "mandate_replaced") return Effect.succeed(notFound())
    if (resourceId === undefined) {
      return Effect.succeed(validationFailed([{ field: "links.resource", message: "is required" }], "/data"))
    }
    if (scenario === undefined) return replaceMandate(resourceId)
    return find(scenario.kind, resourceId, (resource) =>
      Effect.gen(function* () {
        if (!scenario.from.includes(String(resource["status"]))) {
          return invalidState(
            "invalid_resource_state",
            `The ${type} scenario cannot run on a resource that is ${String(resource["status"])}`
          )
        }
        let current = resource
        const changes: Array<Change> = []
        for (const status of stepsOf(scenario.kind, String(resource["status"]), scenario.to, scenario.through)) {
          const last = status === scenario.to
          changes.push(
            yield* moved(
              scenario.kind,
              current,
              status,
              last ? scenario.details : undefined,
              last ? (scenario.action ?? status) : status
            )
          )
          current = { ...current, status }
        }
        if (scenario.back !== undefined) {
          changes.push(
            yield* moved(scenario.kind, current, scenario.back.status, RETRIED_BY_GOCARDLESS, scenario.back.action)
          )
        }
        yield* record(changes)
        return ok({ scenario_simulators: { id: type } })
      })
    )
  }

  /** The hosted page of a flow: its form, or why there is none. */
  const flowPage = (id: string, error: string | null = null): Effect.Effect<FlowPage> =>
    store.transaction(
      Effect.gen(function* () {
        const flow = yield* store.load("billing_request_flows", id)
        if (flow === undefined) return { _tag: "Gone", message: "There is no such direct debit setup." } as const
        if (Date.parse(String(flow["expires_at"])) <= (yield* clock.now).getTime()) {
          return { _tag: "Gone", message: "This direct debit setup has expired. Go back and start again." } as const
        }
        const request = yield* store.load("billing_requests", String(asObject(flow["links"])["billing_request"]))
        if (request === undefined || request["status"] === "cancelled") {
          return { _tag: "Gone", message: "This direct debit setup was cancelled. Go back and start again." } as const
        }
        const description = text(asObject(request["mandate_request"])["description"]) ?? "Direct Debit"
        return { _tag: "Form", flowId: id, description, error } as const
      })
    )

  /** Where the customer goes once the page is done: the flow's redirect_uri exactly as given. */
  const doneLocation = (flow: Resource): FlowPage => {
    const uri = text(flow["redirect_uri"])
    return uri === undefined
      ? { _tag: "Done", message: "Your Direct Debit is set up. You can close this window." }
      : { _tag: "Redirect", location: uri }
  }

  /** The customer posted the hosted page: the success URL when the bank details are right, else the page with an error. */
  const submitFlowPage = (id: string, form: BankDetailsForm): Effect.Effect<FlowPage> =>
    store.transaction(
      Effect.gen(function* () {
        const page = yield* flowPage(id)
        const flow = yield* store.load("billing_request_flows", id)
        if (page._tag !== "Form" || flow === undefined) return page
        const request = yield* store.load("billing_requests", String(asObject(flow["links"])["billing_request"]))
        if (request === undefined) return page
        // A page posted twice: the setup is done, the customer goes on.
        if (request["status"] !== "pending") return doneLocation(flow)
        const checked = checkBankDetails(form)
        if ("error" in checked) return { ...page, error: checked.error }
        const collected = yield* collect(request, flow, checked)
        yield* store.save({ ...flow, customer_details_captured: true })
        if (flow["auto_fulfil"] === false) {
          yield* store.save(collected)
          yield* record([{ resourceType: "billing_requests", resource: collected, action: "bank_account_collected" }])
        } else {
          yield* fulfilled(collected)
        }
        return doneLocation(flow)
      })
    )

  /** A list answer: `{ <kind>: [...], meta: { cursors, limit } }`, or 422 for bad paging. */
  const listed = <A>(
    name: string,
    query: Query,
    list: (page: Page) => Effect.Effect<Paged<A> | SandboxAnswer>
  ): Effect.Effect<SandboxAnswer> => {
    const page = pageOf(query)
    if ("field" in page) return Effect.succeed(validationFailed([page], `/${name}`))
    return Effect.map(list(page), (paged) =>
      "items" in paged ? ok({ [name]: paged.items, meta: { cursors: paged.cursors, limit: page.limit } }) : paged
    )
  }

  /** The filters a list takes, from the query: each a query parameter and where it looks. */
  const filtersOf = (query: Query, by: Record<string, ReadonlyArray<string>>): Array<ListFilter> =>
    Object.entries(by).flatMap(([name, path]) => {
      const values = queryValues(query, name)
      return values === undefined ? [] : [{ path, values }]
    })

  const shownAll = (paged: Paged<Resource>): Paged<Resource> => ({
    ...paged,
    items: paged.items.map((resource) => publicView(resource) as Resource)
  })

  const listMandates = (query: Query) =>
    listed("mandates", query, (page) =>
      store
        .list(
          "mandates",
          filtersOf(query, { customer: ["links", "customer"], mandate: ["id"], status: ["status"] }),
          page
        )
        .pipe(Effect.map(shownAll))
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

  const listEvents = (query: Query) =>
    listed("events", query, (page) =>
      store.listEvents(
        filtersOf(query, {
          resource_type: ["resource_type"],
          action: ["action"],
          mandate: ["links", "mandate"],
          payment: ["links", "payment"],
          billing_request: ["links", "billing_request"]
        }),
        page
      )
    )

  const getEvent = (id: string) =>
    Effect.map(store.loadEvent(id), (event) => (event === undefined ? notFound() : ok({ events: event })))

  return {
    createBillingRequest,
    getBillingRequest: get("billing_requests"),
    fulfilBillingRequest,
    cancelBillingRequest,
    createBillingRequestFlow,
    getMandate: get("mandates"),
    listMandates,
    cancelMandate,
    getCustomer: get("customers"),
    getBankAccount: get("customer_bank_accounts"),
    createPayment,
    getPayment: get("payments"),
    listPayments,
    cancelPayment,
    retryPayment,
    listEvents,
    getEvent,
    runScenario,
    flowPage,
    submitFlowPage
  } as const
})

/** The sandbox over the service's database. */
export const GoCardlessSandboxSql = Layer.effect(GoCardlessSandbox, makeSandbox)
