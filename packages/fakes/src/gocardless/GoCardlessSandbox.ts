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
import { CANCELLED_WITH_MANDATE, type Change, eventsOf, webhooksOf } from "./SandboxEvents.js"
import { type Page, pageOf, type Paged, type Query, queryValues } from "./SandboxPaging.js"
import { type Kind, type ListFilter, makeSandboxStore, publicView, type Resource } from "./SandboxStore.js"

/** A flow can be completed for 30 minutes after it was created, as at GoCardless. */
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
const stepsOf = (kind: "mandates" | "payments", from: string, to: string): ReadonlyArray<string> => {
  const path = lifecycle[kind]
  const through = reachedThrough[to]
  const start = path.indexOf(from)
  const end = through === undefined ? -1 : path.indexOf(through)
  return [...path.slice(start + 1, end + 1), to]
}

/** Scenario simulators: the statuses a resource may be in, and the one it moves to. */
const scenarios: Record<
  string,
  { readonly kind: "mandates" | "payments"; readonly from: ReadonlyArray<string>; readonly to: string }
> = {
  mandate_activated: { kind: "mandates", from: ["pending_submission", "submitted"], to: "active" },
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

const liveMandate = ["pending_customer_approval", "pending_submission", "submitted", "active"]
const cancellablePayment = ["pending_customer_approval", "pending_submission"]

/** What the hosted page shows for a flow. */
export type FlowPage =
  | { readonly _tag: "Form"; readonly flowId: string; readonly description: string; readonly error: string | null }
  | { readonly _tag: "Gone"; readonly message: string }
  | { readonly _tag: "Redirect"; readonly location: string }

/**
 * A GoCardless-compatible sandbox: the subset of GoCardless's API the service uses, with its
 * envelopes, statuses, idempotency keys, lists, events and error bodies, kept in the service's
 * database. A redirect flow whose prefilled email's local part begins with `refuse` is refused
 * (422). Every change of a mandate or payment records its events, and the webhook that will
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
    details?: Change["details"]
  ) =>
    Effect.as(store.save({ ...resource, status }), {
      resourceType,
      resource,
      action: status,
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

  const createRedirectFlow = (body: unknown, key: string | undefined, origin: string) => {
    const flow = asObject(asObject(body)["redirect_flows"])
    const customer = asObject(flow["prefilled_customer"])
    const sessionToken = text(flow["session_token"])
    const successUrl = text(flow["success_redirect_url"])
    const email = text(customer["email"])
    const problems = [
      ...(sessionToken === undefined ? [{ field: "session_token", message: "is required" }] : []),
      ...(!isHttpUrl(successUrl) ? [{ field: "success_redirect_url", message: "must be a valid URL" }] : []),
      ...(email !== undefined && /^refuse/i.test(email)
        ? [{ field: "prefilled_customer.email", message: "has been refused by the sandbox's refusal rule" }]
        : [])
    ]
    if (problems.length > 0) return Effect.succeed(validationFailed(problems, "/redirect_flows"))
    return create("redirect_flows", "RE", key, (id, now) => ({
      id,
      description: text(flow["description"]) ?? null,
      session_token: sessionToken,
      scheme: null,
      success_redirect_url: successUrl,
      redirect_url: `${origin}/flow/${id}`,
      created_at: now.toISOString(),
      mandate_reference: null,
      metadata: asObject(flow["metadata"]),
      links: { creditor: "CR000SANDBOX" },
      _internal: { prefilled_customer: customer, expires_at: now.getTime() + FLOW_LIFETIME_MS, bank: null }
    }))
  }

  const internal = (resource: Resource) => asObject(resource._internal)

  const completeRedirectFlow = (id: string, body: unknown) =>
    find("redirect_flows", id, (flow) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const state = internal(flow)
        if (text(asObject(flow["links"])["mandate"]) !== undefined) {
          return invalidState("redirect_flow_already_completed", "This redirect flow has already been completed")
        }
        if (text(asObject(asObject(body)["data"])["session_token"]) !== flow["session_token"]) {
          return {
            status: 400,
            body: {
              error: {
                message: "The session token provided does not match the redirect flow's session token",
                documentation_url: "https://developer.gocardless.com/api-reference#bad_request",
                type: "invalid_api_usage",
                request_id: sandboxId("RQ"),
                code: 400,
                errors: [
                  {
                    reason: "bad_request",
                    message: "The session token provided does not match the redirect flow's session token"
                  }
                ]
              }
            }
          }
        }
        if (Number(state["expires_at"]) <= now.getTime()) {
          return invalidState("redirect_flow_expired", "This redirect flow has expired")
        }
        const bank = asObject(state["bank"])
        if (text(bank["account_holder_name"]) === undefined) {
          return invalidState("redirect_flow_incomplete", "The customer has not yet completed the payment pages")
        }
        const customer = state["prefilled_customer"]
        const customerId = sandboxId("CU")
        const accountId = sandboxId("BA")
        const mandateId = sandboxId("MD")
        yield* store.insert("customers", { id: customerId, created_at: now.toISOString(), ...asObject(customer) }, now)
        yield* store.insert(
          "customer_bank_accounts",
          {
            id: accountId,
            created_at: now.toISOString(),
            account_holder_name: bank["account_holder_name"],
            account_number_ending: String(bank["account_number"]).slice(-2),
            bank_name: SANDBOX_BANK_NAME,
            country_code: "GB",
            currency: "GBP",
            enabled: true,
            metadata: {},
            links: { customer: customerId }
          },
          now
        )
        const mandate: Resource = {
          id: mandateId,
          created_at: now.toISOString(),
          reference: `CISBOOK-${mandateId.slice(2, 8)}`,
          status: "pending_submission",
          scheme: "bacs",
          next_possible_charge_date: dateOf(addDays(now, FIRST_CHARGE_AFTER_DAYS)),
          payments_require_approval: false,
          metadata: {},
          links: { creditor: "CR000SANDBOX", customer: customerId, customer_bank_account: accountId }
        }
        yield* store.insert("mandates", mandate, now)
        yield* record([{ resourceType: "mandates", resource: mandate, action: "created" }])
        const completed: Resource = {
          ...flow,
          confirmation_url: `${String(flow["redirect_url"])}/confirmation`,
          links: {
            ...asObject(flow["links"]),
            mandate: mandateId,
            customer: customerId,
            customer_bank_account: accountId
          }
        }
        yield* store.save(completed)
        return shown("redirect_flows", completed)
      })
    )

  const cancelMandate = (id: string) =>
    find("mandates", id, (mandate) =>
      Effect.gen(function* () {
        if (mandate["status"] === "cancelled") {
          return invalidState("mandate_already_cancelled", "This mandate has already been cancelled")
        }
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
            metadata: asObject(payment["metadata"]),
            retry_if_possible: false,
            links: { creditor: "CR000SANDBOX", mandate: mandateId }
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

  const runScenario = (type: string, body: unknown) => {
    const scenario = scenarios[type]
    const resourceId = text(asObject(asObject(asObject(body)["data"])["links"])["resource"])
    if (scenario === undefined) return Effect.succeed(notFound())
    if (resourceId === undefined) {
      return Effect.succeed(validationFailed([{ field: "links.resource", message: "is required" }], "/data"))
    }
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
        for (const status of stepsOf(scenario.kind, String(resource["status"]), scenario.to)) {
          changes.push(yield* moved(scenario.kind, current, status))
          current = { ...current, status }
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
        const flow = yield* store.load("redirect_flows", id)
        if (flow === undefined) return { _tag: "Gone", message: "There is no such direct debit setup." } as const
        if (Number(internal(flow)["expires_at"]) <= (yield* clock.now).getTime()) {
          return { _tag: "Gone", message: "This direct debit setup has expired. Go back and start again." } as const
        }
        return { _tag: "Form", flowId: id, description: text(flow["description"]) ?? "Direct Debit", error } as const
      })
    )

  const successLocation = (flow: Resource) => {
    const url = new URL(String(flow["success_redirect_url"]))
    url.searchParams.set("redirect_flow_id", flow.id)
    return url.toString()
  }

  /** The customer posted the hosted page: the success URL when the bank details are right, else the page with an error. */
  const submitFlowPage = (id: string, form: BankDetailsForm): Effect.Effect<FlowPage> =>
    store.transaction(
      Effect.gen(function* () {
        const page = yield* flowPage(id)
        const flow = yield* store.load("redirect_flows", id)
        if (page._tag !== "Form" || flow === undefined) return page
        const checked = checkBankDetails(form)
        if ("error" in checked) return { ...page, error: checked.error }
        yield* store.save({
          ...flow,
          _internal: {
            ...internal(flow),
            bank: { account_holder_name: checked.accountHolderName, account_number: checked.accountNumber }
          }
        })
        return { _tag: "Redirect", location: successLocation(flow) } as const
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
          payment: ["links", "payment"]
        }),
        page
      )
    )

  const getEvent = (id: string) =>
    Effect.map(store.loadEvent(id), (event) => (event === undefined ? notFound() : ok({ events: event })))

  return {
    createRedirectFlow,
    getRedirectFlow: get("redirect_flows"),
    completeRedirectFlow,
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
