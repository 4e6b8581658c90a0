import { startWebhookReceiver, type WebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import gocardless, {
  Environments,
  type Event,
  GoCardlessInternalError,
  InvalidApiUsageError,
  InvalidSignatureError,
  InvalidStateError,
  parse
} from "gocardless-nodejs"
import { e2e, SqlTestPorts, uniqueEmail } from "./E2E.js"
import { SANDBOX, withSettings } from "./SandboxHttp.js"

const WEBHOOK_SECRET = "test-endpoint-secret-0123456789"

class Receiver extends Context.Tag("test/GoCardlessWebhookReceiver")<Receiver, WebhookReceiver>() {}

/** The server, its sandbox sending its webhooks to a receiver of the test's own, signed with the test's secret. */
const App = Layer.unwrapEffect(
  Effect.map(Receiver, (receiver) =>
    e2e(SqlTestPorts).pipe(
      Layer.provide(withSettings({ PUBLIC_BASE_URL: receiver.url, GOCARDLESS_WEBHOOK_SECRET: WEBHOOK_SECRET }))
    )
  )
).pipe(Layer.provideMerge(Layer.scoped(Receiver, startWebhookReceiver)))

/** GoCardless's own client, pointed at the sandbox (its environments name only GoCardless's two hosts). */
const clientOf = (baseUrl: string) => {
  const client = gocardless("sandbox_token", Environments.Sandbox)
  ;(client as unknown as { _api: { _baseUrl: string } })._api._baseUrl = baseUrl
  return client
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a rejection")
    },
    (error: unknown) => error
  )

/** The whole life of a mandate and its payments, as an integrator drives GoCardless; the ids of every event. */
const lifeOfAMandate = async (base: string) => {
  const client = clientOf(`${base}${SANDBOX}`)
  // Redirect flows are closed to new integrators: the sandbox serves none.
  const legacy = await rejection(
    client.redirectFlows.create({ session_token: "s", success_redirect_url: "https://app.example/done" })
  )
  expect(legacy).toMatchObject({ code: 404, errors: [{ reason: "resource_not_found" }] })

  const request = await client.billingRequests.create(
    { mandate_request: { scheme: "bacs", currency: "GBP" }, metadata: { user_id: "user-42" } },
    "setup-42"
  )
  expect(request).toMatchObject({ status: "pending", metadata: { user_id: "user-42" } })
  expect(request.id).toMatch(/^BRQ/)
  const redirectUri = `https://app.example/billing/done?redirect_flow_id=${request.id}`
  const flow = await client.billingRequestFlows.create({
    redirect_uri: redirectUri,
    exit_uri: "https://app.example/billing/done",
    prefilled_customer: { given_name: "Ada", family_name: "Lovelace", email: uniqueEmail("ada") },
    links: { billing_request: request.id! }
  })
  expect(flow.id).toMatch(/^BRF/)
  expect(flow.links?.billing_request).toBe(request.id)

  const page = await fetch(flow.authorisation_url ?? "", {
    method: "POST",
    body: new URLSearchParams({ account_holder_name: "Ada Lovelace", sort_code: "200000", account_number: "55779911" }),
    redirect: "manual"
  })
  expect(page.status).toBe(303)
  expect(page.headers.get("location")).toBe(redirectUri)

  const fulfilled = await client.billingRequests.find(request.id!)
  expect(fulfilled.status).toBe("fulfilled")
  const {
    mandate_request_mandate: mandateId,
    customer: customerId,
    customer_bank_account: accountId
  } = fulfilled.links ?? {}
  expect(mandateId).toMatch(/^MD/)
  expect(fulfilled.resources?.customer_bank_account?.account_holder_name).toBe("Ada Lovelace")
  expect(await rejection(client.billingRequests.cancel(request.id!, {}))).toBeInstanceOf(InvalidStateError)

  // A flow that does not fulfil by itself: the integrator fulfils the request once it is ready.
  const manual = await client.billingRequests.create({ mandate_request: { currency: "GBP" } })
  const manualFlow = await client.billingRequestFlows.create({
    auto_fulfil: false,
    redirect_uri: "https://app.example/billing/done",
    links: { billing_request: manual.id! }
  })
  await fetch(manualFlow.authorisation_url ?? "", {
    method: "POST",
    body: new URLSearchParams({ account_holder_name: "Ada Lovelace", sort_code: "200000", account_number: "55779911" }),
    redirect: "manual"
  })
  expect((await client.billingRequests.find(manual.id!)).status).toBe("ready_to_fulfil")
  const manualDone = await client.billingRequests.fulfil(manual.id!, {})
  expect(manualDone.status).toBe("fulfilled")
  expect(manualDone.links?.mandate_request_mandate).toMatch(/^MD/)
  // One never finished: cancelled, its page says so.
  const abandoned = await client.billingRequests.create({ mandate_request: { currency: "GBP" } })
  const abandonedFlow = await client.billingRequestFlows.create({ links: { billing_request: abandoned.id! } })
  expect((await client.billingRequests.cancel(abandoned.id!, {})).status).toBe("cancelled")
  expect((await fetch(abandonedFlow.authorisation_url ?? "")).status).toBe(404)

  const mandate = await client.mandates.find(mandateId!)
  expect(mandate).toMatchObject({ id: mandateId, status: "pending_submission", scheme: "bacs" })
  const mandates = await client.mandates.list({ customer: customerId! })
  expect(mandates.mandates.map((m) => m.id)).toEqual([mandateId])
  expect(mandates.meta.cursors).toEqual({ before: null, after: null })
  expect(await client.customers.find(customerId!)).toMatchObject({ id: customerId, given_name: "Ada" })
  expect(await client.customerBankAccounts.find(accountId!)).toMatchObject({
    account_holder_name: "Ada Lovelace",
    account_number_ending: "11"
  })

  const payments = []
  for (let i = 0; i < 5; i++) {
    payments.push(
      await client.payments.create(
        { amount: 1000 + i, currency: "GBP", description: `CB-00000${i}`, links: { mandate: mandateId! } },
        `invoice-${mandateId}-${i}`
      )
    )
  }
  // The same idempotency key again: the client follows the 409 to the payment the first request made.
  const repeated = await client.payments.create(
    { amount: 1000, currency: "GBP", links: { mandate: mandateId! } },
    `invoice-${mandateId}-0`
  )
  expect(repeated.id).toBe(payments[0]!.id)
  const [p0, p1, p2, p3, p4] = payments.map((p) => p.id!)
  expect(await client.payments.find(p1!)).toMatchObject({ id: p1, amount: 1001, status: "pending_submission" })

  const firstPage = await client.payments.list({ mandate: mandateId!, limit: 2 })
  expect(firstPage.payments).toHaveLength(2)
  expect(firstPage.meta.cursors.after).toBe(firstPage.payments[1]!.id)
  const all: Array<string> = []
  for await (const payment of client.payments.all({ mandate: mandateId!, limit: 2 })) all.push(payment.id!)
  expect(all).toHaveLength(5)
  expect([...all].sort()).toEqual([p0, p1, p2, p3, p4].sort())

  expect((await client.payments.cancel(p0!)).status).toBe("cancelled")
  await client.scenarioSimulators.run("payment_failed", { links: { resource: p1! } })
  expect((await client.payments.find(p1!)).status).toBe("failed")
  expect((await client.payments.retry(p1!)).status).toBe("pending_submission")
  // As GoCardless: a payment that has not failed cannot be retried, and one is retried 3 times at most.
  expect(await rejection(client.payments.retry(p1!))).toMatchObject({ code: 422, errors: [{ reason: "retry_failed" }] })
  for (const retry of [1, 2, 3]) {
    await client.scenarioSimulators.run("payment_failed", { links: { resource: p4! } })
    expect((await client.payments.retry(p4!)).status, `retry ${retry}`).toBe("pending_submission")
  }
  await client.scenarioSimulators.run("payment_failed", { links: { resource: p4! } })
  expect(await rejection(client.payments.retry(p4!))).toMatchObject({ errors: [{ reason: "retry_failed" }] })
  await client.scenarioSimulators.run("mandate_activated", { links: { resource: mandateId! } })
  expect((await client.mandates.find(mandateId!)).status).toBe("active")
  await client.scenarioSimulators.run("payment_paid_out", { links: { resource: p2! } })
  const notCancellable = await rejection(client.payments.cancel(p2!))
  expect(notCancellable).toBeInstanceOf(InvalidStateError)
  expect((await client.mandates.cancel(mandateId!)).status).toBe("cancelled")
  expect((await client.payments.find(p3!)).status).toBe("cancelled")
  const cancelledAgain = await rejection(client.mandates.cancel(mandateId!))
  expect(cancelledAgain).toBeInstanceOf(InvalidStateError)
  expect(cancelledAgain).toMatchObject({ code: 422, errors: [{ reason: "cancellation_failed" }] })

  // What the service's client used to see as GoCardlessInternalError (500): a 404 it can read.
  const missing = [
    () => client.payments.find("PM0000NOPE00"),
    () => client.payouts.list(),
    () => client.events.find("EV0")
  ]
  for (const call of missing) {
    const error = await rejection(call())
    expect(error).toBeInstanceOf(InvalidApiUsageError)
    expect(error).not.toBeInstanceOf(GoCardlessInternalError)
    expect(error).toMatchObject({ code: 404, errors: [{ reason: "resource_not_found" }] })
  }

  const ofMandate = await client.events.list({ mandate: mandateId! })
  expect(ofMandate.events.map((e) => e.action)).toEqual(["cancelled", "active", "submitted", "created"])
  const ofRetried = await client.events.list({ payment: p1! })
  // Retried, it was pending again, and went with its mandate.
  expect(ofRetried.events.map((e) => e.action)).toEqual([
    "cancelled",
    "resubmission_requested",
    "failed",
    "submitted",
    "created"
  ])
  const cancelledWithMandate = await client.events.list({ payment: p3!, action: "cancelled" })
  expect(cancelledWithMandate.events[0]?.details).toMatchObject({ origin: "api", cause: "mandate_cancelled" })
  const ofRequest = await client.events.list({ billing_request: request.id! })
  expect(ofRequest.events.map((e) => e.action)).toEqual(["fulfilled", "flow_created", "created"])
  expect(ofRequest.events[0]?.links).toMatchObject({ billing_request: request.id, mandate_request_mandate: mandateId })
  const ids = [...ofRequest.events.map((e) => e.id!), ...ofMandate.events.map((e) => e.id!)]
  for (const payment of [p0, p1, p2, p3, p4]) {
    for await (const event of client.events.all({ payment: payment!, limit: 2 })) ids.push(event.id!)
  }

  // The simulators of GoCardless's later moves.
  await client.scenarioSimulators.run("payment_late_failure_settled", { links: { resource: p2! } })
  expect((await client.payments.find(p2!)).status).toBe("failed")
  const [lateFailure] = (await client.events.list({ payment: p2!, limit: 1 })).events
  expect(lateFailure?.action).toBe("late_failure_settled")
  const replacedId = manualDone.links!.mandate_request_mandate!
  await client.scenarioSimulators.run("mandate_replaced", { links: { resource: replacedId } })
  const replaced = await client.mandates.find(replacedId)
  expect(replaced.status).toBe("cancelled")
  const newMandate = await client.mandates.find(replaced.links!.new_mandate!)
  expect(newMandate).toMatchObject({
    status: "pending_submission",
    links: { customer_bank_account: replaced.links!.customer_bank_account }
  })
  const [replacedEvent] = (await client.events.list({ mandate: replacedId, action: "replaced" })).events
  expect(replacedEvent?.links).toMatchObject({ mandate: replacedId, new_mandate: newMandate.id })
  // GoCardless retries a failure itself only for a payment that asked for it (Success+).
  const once = await client.payments.create({ amount: 990, currency: "GBP", links: { mandate: newMandate.id! } })
  expect(once.retry_if_possible).toBe(false)
  const refusedRetry = await rejection(
    client.scenarioSimulators.run("payment_failed_will_retry", { links: { resource: once.id! } })
  )
  expect(refusedRetry).toBeInstanceOf(InvalidStateError)
  const retrying = await client.payments.create({
    amount: 990,
    currency: "GBP",
    retry_if_possible: true,
    links: { mandate: newMandate.id! }
  })
  await client.scenarioSimulators.run("payment_failed_will_retry", { links: { resource: retrying.id! } })
  expect((await client.payments.find(retrying.id!)).status).toBe("pending_submission")
  const willRetry = await client.events.list({ payment: retrying.id!, limit: 2 })
  expect(willRetry.events.map((e) => [e.action, e.details?.will_attempt_retry])).toEqual([
    ["resubmission_requested", undefined],
    ["failed", true]
  ])
  await client.scenarioSimulators.run("mandate_reinstated", { links: { resource: mandateId! } })
  expect((await client.mandates.find(mandateId!)).status).toBe("active")
  const [reinstated] = (await client.events.list({ mandate: mandateId!, limit: 1 })).events
  expect(reinstated?.action).toBe("reinstated")
  return ids
}

layer(App, { timeout: "90 seconds", excludeTestServices: true })(
  "GoCardless's own client (gocardless-nodejs) against the sandbox",
  (it) => {
    it.effect("drives a mandate and its payments through their whole life, and verifies every webhook", () =>
      Effect.gen(function* () {
        const base = yield* HttpServer.addressFormattedWith((address) => Effect.succeed(address))
        const receiver = yield* Receiver
        const eventIds = yield* Effect.promise(() => lifeOfAMandate(base))
        // The billing request 3, the mandate 4, the payments 2 + 5 + 4 + 2 + 12 (failed and retried 3 times, failed again).
        expect(new Set(eventIds).size).toBe(32)

        // Every event arrives by webhook, signed as GoCardless signs, however the sender batched them.
        const delivered = yield* receiver.received.pipe(
          Effect.map((all) =>
            all.flatMap(
              (request) =>
                parse(request.body, WEBHOOK_SECRET, request.headers["webhook-signature"] ?? "") as Array<Event>
            )
          ),
          Effect.filterOrFail(
            (events) => eventIds.every((id) => events.some((event) => event.id === id)),
            () => new Error("Not every event was delivered yet")
          ),
          Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo("20 seconds")))
        )
        expect(delivered.filter((event) => eventIds.includes(event.id!))).toHaveLength(eventIds.length)
        const requests = yield* receiver.received
        for (const request of requests) {
          expect(request.path).toBe("/webhooks/gocardless")
          expect(request.headers["user-agent"]).toBe("gocardless-webhook-service/1.1")
          expect(request.headers["content-type"]).toMatch(/^application\/json/)
          const body = JSON.parse(request.body) as { events: Array<unknown>; meta: { webhook_id: string } }
          expect(body.meta.webhook_id).toMatch(/^WB/)
          expect(body.events.length).toBeLessThanOrEqual(250)
          expect(() => parse(request.body, "another-secret", request.headers["webhook-signature"] ?? "")).toThrow(
            InvalidSignatureError as unknown as new () => Error
          )
        }
      })
    )
  }
)
