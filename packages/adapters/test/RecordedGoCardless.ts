import type { MandateSetupStarted } from "@cisbook/core/billing/mandates/DirectDebit"
import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { Effect, Layer, Ref } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { exampleOf, type Json, published, recordedRateLimitHeaders } from "./PublishedGoCardless.js"

// GoCardless as its official clients publish its answers (fixtures/gocardless, README there):
// every answer is a published body, with only the fields that say which resource and in what
// state set by this replay (ids, status, links, what the request sent), so that the adapter is
// tested against what GoCardless sends rather than against what our sandbox sends.

const links = (answer: Json) => answer["links"] as Json
const omit = (record: Json, names: ReadonlyArray<string>) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => !names.includes(name)))

/** The rate-limit headers of a recorded GoCardless answer (the Java client's tape). */
const RATE_LIMIT = recordedRateLimitHeaders("create_a_payment.yaml")

interface Setup {
  status: "pending" | "ready_to_fulfil" | "fulfilled" | "cancelled"
  customer: string | null
  account: string | null
  mandate: string | null
  metadata: unknown
}

interface Mandate {
  status: string
  account: string
  newMandate: string | null
}

interface Payment {
  status: string
  amount: number
  currency: string
  mandate: string
  description: unknown
  metadata: unknown
  retryIfPossible: unknown
  retries: number
}

export interface Reply {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** A request as the replay saw it. */
export interface Seen {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly body: Json
}

/** GoCardless's own 500 body (a `gocardless` error), as its Python client publishes it. */
export const internalError = (): Reply => ({
  status: 500,
  body: published("gocardless-pro-python", "gocardless_error.json")
})

/**
 * GoCardless's 429: the published rate_limit_exceeded body with the headers of a recorded answer,
 * its budget spent (`RateLimit-Remaining: 0`) until `reset`.
 */
export const rateLimited = (reset: Date): Reply => ({
  status: 429,
  body: published("gocardless-pro-python", "rate_limit_exceeded.json"),
  headers: { ...RATE_LIMIT, "ratelimit-remaining": "0", "ratelimit-reset": reset.toUTCString() }
})

/** The most times GoCardless retries one payment (its Python client: "Payments can be retried up to 3 times"). */
const MAX_RETRIES = 3
const LIVE_MANDATE = ["pending_customer_approval", "pending_submission", "submitted", "active"]

/**
 * GoCardless's state and answers, in memory: a setup's page finished leaves its billing request
 * `ready_to_fulfil` (the published flow has `auto_fulfil: false`) for the adapter to fulfil; a
 * cancelled mandate takes its pending payments with it; a failed payment can be retried 3 times
 * while its mandate can collect; a create repeated under its key answers 409 naming the first.
 */
export const makeReplay = () => {
  let created = 0
  const idOf = (prefix: string) => `${prefix}${String(++created).padStart(10, "0")}`
  const setups = new Map<string, Setup>()
  const mandates = new Map<string, Mandate>()
  const payments = new Map<string, Payment>()
  const keys = new Map<string, string>()
  const seen: Array<Seen> = []

  const ok = (body: unknown, status = 200): Reply => ({ status, body, headers: RATE_LIMIT })

  /** An error body of GoCardless's: a published one, its first error given `reason` and `message` when named. */
  const error = (status: number, body: Json, first?: Json): Reply => {
    const detail = body["error"] as Json
    return {
      status,
      headers: RATE_LIMIT,
      body:
        first === undefined
          ? body
          : {
              error: {
                ...detail,
                code: status,
                message: first["message"] ?? detail["message"],
                documentation_url: `https://developer.gocardless.com/api-reference#${String(first["reason"] ?? detail["type"])}`,
                errors: [first]
              }
            }
    }
  }
  // GoCardless publishes no 404 body: the invalid_api_usage body, with the reason its API reference names.
  const notFound = () =>
    error(404, published("gocardless-pro-python", "invalid_api_usage_error.json"), {
      reason: "resource_not_found",
      message: "Resource not found"
    })
  const invalidState = (reason: string, message: string) =>
    error(422, published("gocardless-pro-python", "invalid_state_error.json"), { reason, message })

  const billingRequest = (id: string) => {
    const setup = setups.get(id)!
    const example = exampleOf("billing_requests", setup.status === "fulfilled" ? "fulfil" : "get")[
      "billing_requests"
    ] as Json
    const own = omit(links(example), ["customer", "customer_bank_account", "mandate_request_mandate"])
    return {
      billing_requests: {
        ...example,
        id,
        status: setup.status,
        metadata: setup.metadata,
        links: {
          ...own,
          ...(setup.customer === null ? {} : { customer: setup.customer, customer_bank_account: setup.account }),
          ...(setup.mandate === null ? {} : { mandate_request_mandate: setup.mandate })
        }
      }
    }
  }

  const mandate = (id: string, endpoint = "get") => {
    const held = mandates.get(id)!
    const example = exampleOf("mandates", endpoint)["mandates"] as Json
    return {
      mandates: {
        ...example,
        id,
        status: held.status,
        // As GoCardless's recorded cancel answers (the Java client's cancel_a_mandate_response.json).
        ...(held.status === "cancelled" ? { next_possible_charge_date: null } : {}),
        links: {
          ...omit(links(example), ["new_mandate"]),
          customer_bank_account: held.account,
          ...(held.newMandate === null ? {} : { new_mandate: held.newMandate })
        }
      }
    }
  }

  const payment = (id: string, endpoint = "get") => {
    const held = payments.get(id)!
    const example = exampleOf("payments", endpoint)["payments"] as Json
    return {
      ...example,
      id,
      status: held.status,
      amount: held.amount,
      currency: held.currency,
      description: held.description,
      metadata: held.metadata,
      retry_if_possible: held.retryIfPossible,
      links: { ...links(example), mandate: held.mandate }
    }
  }

  /** A create under an idempotency key: 409 naming the first resource when the key was used. */
  const once = (kind: string, key: string | undefined, make: () => string): string | Reply => {
    const earlier = key === undefined ? undefined : keys.get(`${kind}:${key}`)
    if (earlier !== undefined) {
      const conflict = published("gocardless-pro-python", "idempotent_creation_conflict_error.json")
      const detail = conflict["error"] as Json
      const first = (detail["errors"] as Array<Json>)[0]!
      return error(409, conflict, { ...first, links: { conflicting_resource_id: earlier } })
    }
    const id = make()
    if (key !== undefined) keys.set(`${kind}:${key}`, id)
    return id
  }

  const listPayments = (url: URL): Reply => {
    const limit = Number(url.searchParams.get("limit") ?? 50)
    const after = url.searchParams.get("after")
    const all = [...payments.entries()].filter(([, p]) => p.mandate === url.searchParams.get("mandate")).reverse()
    const from = after === null ? 0 : all.findIndex(([id]) => id === after) + 1
    const page = all.slice(from, from + limit).map(([id]) => id)
    const example = exampleOf("payments", "list")
    // Cursors as GoCardless's recorded pages have them (the Java client's list_mandates_page_1/2):
    // `after` the last id while more follow, `before` the first id of a page after the first.
    return ok({
      ...example,
      payments: page.map((id) => payment(id)),
      meta: {
        ...(example["meta"] as Json),
        cursors: {
          before: from === 0 ? null : (page[0] ?? null),
          after: from + limit < all.length ? (page.at(-1) ?? null) : null
        },
        limit
      }
    })
  }

  const answer = (method: string, url: URL, body: Json, key: string | undefined): Reply => {
    seen.push({ method, path: `${url.pathname}${url.search}`, idempotencyKey: key, body })
    const [, resource, id, , action] = url.pathname.split("/")
    const route = `${method} /${resource}${id === undefined ? "" : "/:id"}${action === undefined ? "" : `/${action}`}`
    switch (route) {
      case "POST /billing_requests": {
        const made = once("billing_requests", key, () => {
          const brq = idOf("BRQ")
          const sent = body["billing_requests"] as Json
          setups.set(brq, {
            status: "pending",
            customer: null,
            account: null,
            mandate: null,
            metadata: sent["metadata"]
          })
          return brq
        })
        return typeof made === "string" ? ok(billingRequest(made), 201) : made
      }
      case "GET /billing_requests/:id":
        return setups.has(id!) ? ok(billingRequest(id!)) : notFound()
      case "POST /billing_requests/:id/fulfil": {
        const setup = setups.get(id!)
        if (setup === undefined) return notFound()
        if (setup.status !== "ready_to_fulfil") {
          return invalidState("billing_request_not_ready_to_fulfil", "This billing request is not ready to fulfil")
        }
        setup.status = "fulfilled"
        setup.mandate = idOf("MD")
        mandates.set(setup.mandate, { status: "pending_submission", account: setup.account!, newMandate: null })
        return ok(billingRequest(id!))
      }
      case "POST /billing_requests/:id/cancel": {
        const setup = setups.get(id!)
        if (setup === undefined) return notFound()
        if (setup.status === "fulfilled" || setup.status === "cancelled") {
          return invalidState("billing_request_not_cancellable", "This billing request can no longer be cancelled")
        }
        setup.status = "cancelled"
        return ok(billingRequest(id!))
      }
      case "POST /billing_request_flows": {
        const sent = body["billing_request_flows"] as Json
        const email = String((sent["prefilled_customer"] as Json | undefined)?.["email"] ?? "")
        // GoCardless refuses an address it cannot deliver to; the contract's refused address stands for one.
        if (/^refuse/.test(email)) {
          const refused = published("gocardless-pro-python", "validation_failed_error.json")
          const first = ((refused["error"] as Json)["errors"] as Array<Json>)[1]!
          return error(422, refused, {
            ...first,
            field: "email",
            request_pointer: "/billing_request_flows/prefilled_customer/email"
          })
        }
        const brq = String((sent["links"] as Json)["billing_request"])
        if (!setups.has(brq)) return notFound()
        const brf = idOf("BRF")
        const now = new Date()
        return ok(
          {
            billing_request_flows: {
              ...(exampleOf("billing_request_flows", "create")["billing_request_flows"] as Json),
              id: brf,
              created_at: now.toISOString(),
              // A flow lasts 7 days (GoCardless's API reference); the published example's own is a placeholder.
              expires_at: new Date(now.getTime() + 7 * 24 * 3600_000).toISOString(),
              authorisation_url: `https://pay-sandbox.gocardless.com/billing/static/flow?id=${brf}`,
              redirect_uri: sent["redirect_uri"],
              exit_uri: sent["exit_uri"],
              prefilled_customer: sent["prefilled_customer"],
              links: { billing_request: brq }
            }
          },
          201
        )
      }
      case "GET /mandates/:id":
        return mandates.has(id!) ? ok(mandate(id!)) : notFound()
      case "POST /mandates/:id/cancel": {
        const held = mandates.get(id!)
        if (held === undefined) return notFound()
        // GoCardless's published cancellation_failed (its Node client's invalid_state.json), as it is.
        if (!LIVE_MANDATE.includes(held.status)) {
          return error(422, published("gocardless-nodejs", "invalid_state.json"))
        }
        held.status = "cancelled"
        for (const p of payments.values()) {
          if (p.mandate === id && p.status === "pending_submission") p.status = "cancelled"
        }
        return ok(mandate(id!, "cancel"))
      }
      case "GET /customer_bank_accounts/:id":
        return [...mandates.values()].some((m) => m.account === id)
          ? ok({
              customer_bank_accounts: {
                ...(exampleOf("customer_bank_accounts", "get")["customer_bank_accounts"] as Json),
                id
              }
            })
          : notFound()
      case "POST /payments": {
        const sent = body["payments"] as Json
        const on = mandates.get(String((sent["links"] as Json)["mandate"]))
        if (on === undefined || !LIVE_MANDATE.includes(on.status)) {
          return invalidState("mandate_is_inactive", "The mandate is not active")
        }
        const made = once("payments", key, () => {
          const pm = idOf("PM")
          payments.set(pm, {
            status: "pending_submission",
            amount: Number(sent["amount"]),
            currency: String(sent["currency"]),
            mandate: String((sent["links"] as Json)["mandate"]),
            description: sent["description"],
            metadata: sent["metadata"] ?? {},
            retryIfPossible: sent["retry_if_possible"] ?? false,
            retries: 0
          })
          return pm
        })
        return typeof made === "string" ? ok({ payments: payment(made, "create") }, 201) : made
      }
      case "GET /payments/:id":
        return payments.has(id!) ? ok({ payments: payment(id!) }) : notFound()
      case "GET /payments":
        return listPayments(url)
      case "POST /payments/:id/retry": {
        const held = payments.get(id!)
        if (held === undefined) return notFound()
        const on = mandates.get(held.mandate)!
        // The reason GoCardless's Python client names ("a `retry_failed` error if the payment has not failed").
        if (held.status !== "failed" || !LIVE_MANDATE.includes(on.status) || held.retries >= MAX_RETRIES) {
          return invalidState("retry_failed", "The payment could not be retried")
        }
        held.status = "pending_submission"
        held.retries += 1
        return ok({ payments: payment(id!, "retry") })
      }
      default:
        return notFound()
    }
  }

  /** The customer finished the flow's page: its billing request is ready to fulfil. */
  const finishPage = (setup: MandateSetupStarted) =>
    Effect.sync(() => {
      const found = setups.get(setup.id)
      if (found === undefined || found.status !== "pending") return
      found.status = "ready_to_fulfil"
      found.customer = idOf("CU")
      found.account = idOf("BA")
    })

  /** The payment failed at the bank, and GoCardless will not retry it. */
  const failPayment = (paymentId: string) =>
    Effect.sync(() => {
      const held = payments.get(paymentId)
      if (held !== undefined) held.status = "failed"
    })

  return { answer, finishPage, failPayment, seen, payments, mandates, setups } as const
}

export type Replay = ReturnType<typeof makeReplay>

/** The replay served over HTTP on a local port, for the adapter on the platform's fetch. */
export const recordedGoCardless = Effect.acquireRelease(
  Effect.promise(async () => {
    const replay = makeReplay()
    const server = createServer((req, res) => {
      let text = ""
      req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
      req.on("end", () => {
        const key = req.headers["idempotency-key"]
        const reply = replay.answer(
          req.method ?? "GET",
          new URL(req.url ?? "/", "http://recorded"),
          text === "" ? {} : (JSON.parse(text) as Json),
          typeof key === "string" ? key : undefined
        )
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
        res.end(JSON.stringify(reply.body))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return { ...replay, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

/**
 * What goes wrong with the next request a fault is set for: `drop`, the connection drops before
 * GoCardless has it (nothing done); `lose`, GoCardless does it and its answer never arrives (the
 * call times out); `fail`, GoCardless does it and answers 500; `rateLimited`, GoCardless refuses
 * it undone with 429.
 */
export type Fault = "drop" | "lose" | "fail" | { readonly rateLimitedUntil: Date }

/**
 * The replay as the adapter's HTTP client, in process, with faults to inject: `faults.set(method,
 * path, fault)` makes the next such request go wrong. Times are Effect's, so TestClock moves them.
 */
export const recordedGoCardlessClient = Effect.gen(function* () {
  const replay = makeReplay()
  const faults = yield* Ref.make<ReadonlyArray<{ readonly call: string; readonly fault: Fault }>>([])
  const sent = yield* Ref.make<ReadonlyArray<string>>([])
  const client = HttpClient.make((request, url) =>
    Effect.gen(function* () {
      const call = `${request.method} ${url.pathname}`
      yield* Ref.update(sent, (all) => [...all, call])
      const fault = yield* Ref.modify(faults, (all) => {
        const i = all.findIndex((f) => f.call === call)
        return i < 0 ? [undefined, all] : [all[i]!.fault, all.filter((_, j) => j !== i)]
      })
      if (fault === "drop") {
        return yield* new HttpClientError.RequestError({ request, reason: "Transport", cause: new Error("ECONNRESET") })
      }
      const key = request.headers["idempotency-key"]
      const body =
        request.body._tag === "Uint8Array" ? (JSON.parse(new TextDecoder().decode(request.body.body)) as Json) : {}
      const reply =
        typeof fault === "object" ? rateLimited(fault.rateLimitedUntil) : replay.answer(request.method, url, body, key)
      if (fault === "lose") return yield* Effect.never
      const answered = fault === "fail" ? internalError() : reply
      return HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify(answered.body), {
          status: answered.status,
          headers: { "content-type": "application/json", ...answered.headers }
        })
      )
    })
  )
  return {
    ...replay,
    layer: Layer.succeed(HttpClient.HttpClient, client),
    /** Every call the adapter sent, as `METHOD /path`, whether or not it reached GoCardless. */
    sent: Ref.get(sent),
    fault: (method: string, path: string, fault: Fault) =>
      Ref.update(faults, (all) => [...all, { call: `${method} ${path}`, fault }])
  }
})
