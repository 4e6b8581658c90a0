import { webhookDispatcher } from "../src/workers/WebhookDispatcher.js"
import { EventType } from "@cisbook/core/events/Event"
import { startWebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Schedule } from "effect"
import { e2e, raw, signUp, SqlTestPorts, sqlTestPorts, uniqueTenantCode } from "./E2E.js"

/** A user with a client, owning a new tenant. */
const owner = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: `${name} Ltd` } })
    return { ...user, tenant }
  })

const isoInstant = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

/** The whole service with its dispatcher, allowed to send to the receivers on loopback. */
const WithDispatcher = webhookDispatcher({
  pollInterval: Duration.millis(20),
  concurrency: 8,
  lease: Duration.seconds(60)
}).pipe(Layer.provideMerge(e2e(sqlTestPorts({ allowPrivateTargets: true }))))

layer(WithDispatcher, { excludeTestServices: true, timeout: "60 seconds" })("webhooks over HTTP", (it) => {
  describe("management", () => {
    it.effect("creates a webhook (201, its secret once), lists, gets, replaces and deletes it", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("manage")
        const created = yield* raw(key, "POST", `/tenants/${tenant}/webhooks`, {
          url: " https://hooks.example.com/cisbook ",
          eventTypes: ["contact.created"],
          unknownMember: true
        })
        expect(created.status).toBe(201)
        expect(created.body).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          url: "https://hooks.example.com/cisbook",
          description: null,
          eventTypes: ["contact.created"],
          enabled: true,
          createdAt: isoInstant,
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)
        })
        const { secret, ...shown } = created.body ?? {}
        const path = `/tenants/${tenant}/webhooks/${shown.id}`
        expect(yield* raw(key, "GET", path)).toMatchObject({ status: 200, body: shown })
        expect(yield* raw(key, "GET", `/tenants/${tenant}/webhooks`)).toMatchObject({ status: 200, body: [shown] })

        const replaced = yield* raw(key, "PUT", path, {
          url: "https://hooks.example.com/v2",
          description: "Accounts",
          eventTypes: [],
          enabled: false
        })
        expect(replaced).toMatchObject({
          status: 200,
          body: {
            ...shown,
            url: "https://hooks.example.com/v2",
            description: "Accounts",
            eventTypes: [],
            enabled: false
          }
        })
        const rotated = yield* raw(key, "POST", `${path}/rotate-secret`)
        expect(rotated.status).toBe(200)
        expect(Object.keys(rotated.body ?? {})).toEqual(["secret"])
        expect(rotated.body?.secret).toMatch(/^whsec_/)
        expect(rotated.body?.secret).not.toBe(secret)

        expect((yield* raw(key, "DELETE", path)).status).toBe(204)
        expect(yield* raw(key, "GET", path)).toMatchObject({
          status: 404,
          contentType: expect.stringMatching(/problem\+json/)
        })
        expect((yield* raw(key, "DELETE", path)).status).toBe(404)
      })
    )

    it.effect("names every invalid member of a create or replace request and keeps nothing", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("invalid")
        const res = yield* raw(key, "POST", `/tenants/${tenant}/webhooks`, {
          url: "not a url",
          eventTypes: ["contact.created", "invoice.eaten"],
          enabled: "yes",
          description: "x".repeat(501)
        })
        expect(res.status).toBe(400)
        expect(res.body).toMatchObject({ title: "One or more validation errors occurred.", status: 400 })
        expect(Object.keys(res.body?.errors ?? {}).sort()).toEqual(["description", "enabled", "eventTypes[1]", "url"])
        expect(res.body?.errors.url).toEqual(["Must be an absolute URL such as https://example.com/webhooks"])
        const { body } = yield* raw(key, "POST", `/tenants/${tenant}/webhooks`, {})
        expect(body?.errors).toEqual({ url: ["Required"] })
        expect((yield* raw(key, "GET", `/tenants/${tenant}/webhooks`)).body).toEqual([])
      })
    )
  })

  describe("test and deliveries", () => {
    it.scoped("queues a test (202, Pending) that the dispatcher delivers, signed, to a receiver that verifies it", () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        const { api, key, tenant } = yield* owner("test")
        const webhook = yield* api.webhooks.createWebhook({ path: { tenant }, payload: { url: `${receiver.url}/in` } })
        yield* receiver.trust(webhook.secret)
        yield* receiver.answerWith(() => ({ status: 200, body: '{"ok":true}' }))
        const queued = yield* raw(key, "POST", `/tenants/${tenant}/webhooks/${webhook.id}/test`)
        expect(queued.status).toBe(202)
        expect(queued.body).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          webhookId: webhook.id,
          eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          eventType: "test.webhook",
          status: "Pending",
          attempts: 0,
          createdAt: isoInstant,
          lastAttemptAt: null,
          nextAttemptAt: queued.body?.createdAt,
          responseStatus: null,
          responseBody: null
        })
        const [got] = yield* receiver.waitFor(1)
        expect(got?.verified).toBe(true)
        expect(got?.headers["webhook-id"]).toBe(queued.body?.eventId)
        const delivery = yield* api.webhooks.getWebhookDelivery({ path: { tenant, delivery: queued.body?.id } }).pipe(
          Effect.filterOrFail((d) => d.status === "Succeeded"),
          Effect.retry(Schedule.spaced("25 millis").pipe(Schedule.upTo("10 seconds")))
        )
        expect(delivery).toMatchObject({
          attempts: 1,
          responseStatus: 200,
          responseBody: '{"ok":true}',
          nextAttemptAt: null
        })
        expect(delivery.attemptLog).toHaveLength(1)
        const detail = yield* raw(key, "GET", `/tenants/${tenant}/webhooks/deliveries/${queued.body?.id}`)
        expect(detail.body?.attemptLog).toEqual([
          { at: isoInstant, responseStatus: 200, durationMs: expect.any(Number), error: null }
        ])
      })
    )

    it.scoped("delivers a contact's events to the webhooks that subscribe, the contact as data", () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        const { api, tenant } = yield* owner("events")
        const all = yield* api.webhooks.createWebhook({ path: { tenant }, payload: { url: `${receiver.url}/all` } })
        const subs = yield* api.webhooks.createWebhook({
          path: { tenant },
          payload: { url: `${receiver.url}/subs`, eventTypes: ["subcontractor.created"] }
        })
        const contact = yield* api.contacts.createContact({
          path: { tenant },
          payload: { name: "Bo", isCustomer: true }
        })
        // An event's deliveries are queued in the transaction that records it: once the contact
        // is created, the webhook that does not subscribe has none, so nothing is ever sent to it.
        const queuedToSubs = yield* api.webhooks.listWebhookDeliveries({
          path: { tenant, webhook: subs.id },
          urlParams: {}
        })
        expect(queuedToSubs.totalCount).toBe(0)
        const [got] = yield* receiver.waitFor(1)
        expect((yield* receiver.received).map((r) => r.path)).toEqual(["/all"])
        const body = JSON.parse(got!.body)
        expect(body).toMatchObject({ type: "contact.created", timestamp: isoInstant })
        expect(body.data).toEqual({ ...JSON.parse(JSON.stringify(contact)) })
        const page = yield* api.webhooks.listWebhookDeliveries({ path: { tenant, webhook: all.id }, urlParams: {} })
        expect(page).toMatchObject({ totalCount: 1, offset: 0, limit: 10 })
      })
    )

    it.scoped(
      "disables a webhook whose endpoint answers 410 Gone, shown as enabled: false, and sends it nothing more",
      () =>
        Effect.gen(function* () {
          const receiver = yield* startWebhookReceiver
          const { api, key, tenant } = yield* owner("gone")
          yield* receiver.answerWith((request) => (request.path === "/gone" ? { status: 410 } : { status: 204 }))
          const gone = yield* api.webhooks.createWebhook({ path: { tenant }, payload: { url: `${receiver.url}/gone` } })
          yield* api.webhooks.createWebhook({
            path: { tenant },
            payload: { url: `${receiver.url}/ops`, eventTypes: ["webhook.disabled"] }
          })
          yield* api.webhooks.testWebhook({ path: { tenant, webhook: gone.id } })
          const disabled = yield* api.webhooks.getWebhook({ path: { tenant, webhook: gone.id } }).pipe(
            Effect.filterOrFail((w) => !w.enabled),
            Effect.retry(Schedule.spaced("25 millis").pipe(Schedule.upTo("10 seconds")))
          )
          expect(disabled).toMatchObject({ id: gone.id, enabled: false })
          const [, toOps] = yield* receiver.waitFor(2)
          expect(toOps?.path).toBe("/ops")
          expect(JSON.parse(toOps!.body)).toMatchObject({
            type: "webhook.disabled",
            data: { webhookId: gone.id, url: gone.url, reason: "Gone", failingSince: null }
          })
          yield* api.contacts.createContact({ path: { tenant }, payload: { name: "Bo", isCustomer: true } })
          const test = yield* raw(key, "POST", `/tenants/${tenant}/webhooks/${gone.id}/test`)
          expect(test).toMatchObject({ status: 400 })
          // The contact's event was queued to no disabled webhook: only the test went to it.
          const deliveries = yield* api.webhooks.listWebhookDeliveries({
            path: { tenant, webhook: gone.id },
            urlParams: {}
          })
          expect(deliveries.items.map((d) => [d.eventType, d.responseStatus])).toEqual([["test.webhook", 410]])
          expect((yield* receiver.received).map((r) => r.path)).toEqual(["/gone", "/ops"])
        })
    )

    it.scoped("retries a Failed delivery once more (204); 400 when it is not Failed or its webhook is disabled", () =>
      Effect.gen(function* () {
        const receiver = yield* startWebhookReceiver
        const { api, key, tenant } = yield* owner("retry")
        yield* receiver.answerWith((_, index) => (index === 0 ? { status: 500, body: "oops" } : { status: 204 }))
        const webhook = yield* api.webhooks.createWebhook({ path: { tenant }, payload: { url: `${receiver.url}/r` } })
        const queued = yield* api.webhooks.testWebhook({ path: { tenant, webhook: webhook.id } })
        const retryPath = `/tenants/${tenant}/webhooks/deliveries/${queued.id}/retry`
        const get = api.webhooks.getWebhookDelivery({ path: { tenant, delivery: queued.id } })
        const failed = yield* get.pipe(
          Effect.filterOrFail((d) => d.status === "Failed"),
          Effect.retry(Schedule.spaced("25 millis").pipe(Schedule.upTo("10 seconds")))
        )
        expect(failed).toMatchObject({ responseStatus: 500, responseBody: "oops", attempts: 1 })
        const failedList = yield* raw(key, "GET", `/tenants/${tenant}/webhooks/${webhook.id}/deliveries?status=Failed`)
        expect(failedList.body).toMatchObject({ totalCount: 1, items: [{ id: queued.id, status: "Failed" }] })

        yield* api.webhooks.replaceWebhook({
          path: { tenant, webhook: webhook.id },
          payload: { url: webhook.url, eventTypes: [], enabled: false }
        })
        expect((yield* raw(key, "POST", retryPath)).body?.detail).toBe(
          `The webhook ${webhook.id} is disabled: enable it to retry its deliveries.`
        )
        expect((yield* raw(key, "POST", `/tenants/${tenant}/webhooks/${webhook.id}/test`)).status).toBe(400)
        yield* api.webhooks.replaceWebhook({
          path: { tenant, webhook: webhook.id },
          payload: { url: webhook.url, eventTypes: [], enabled: true }
        })
        expect((yield* raw(key, "POST", retryPath)).status).toBe(204)
        const done = yield* get.pipe(
          Effect.filterOrFail((d) => d.status === "Succeeded"),
          Effect.retry(Schedule.spaced("25 millis").pipe(Schedule.upTo("10 seconds")))
        )
        expect(done.attemptLog.map((a) => a.responseStatus)).toEqual([500, 204])
        // Sent at once when asked, before the automatic retry 5 s after the failure.
        expect(done.attemptLog[1]!.at.getTime() - done.attemptLog[0]!.at.getTime()).toBeLessThan(5_000)
        const notFailed = yield* raw(key, "POST", retryPath)
        expect(notFailed).toMatchObject({
          status: 400,
          body: {
            title: "Bad Request",
            detail: `The delivery ${queued.id} is Succeeded: only a Failed delivery can be retried.`
          }
        })
      })
    )

    it.effect("pages deliveries and refuses a bad page with a validation problem", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("paging")
        const webhook = yield* api.webhooks.createWebhook({
          path: { tenant },
          payload: { url: "https://hooks.example.com/never", enabled: true }
        })
        yield* api.webhooks.replaceWebhook({
          path: { tenant, webhook: webhook.id },
          payload: { url: webhook.url, eventTypes: [], enabled: true }
        })
        const bad = yield* raw(
          key,
          "GET",
          `/tenants/${tenant}/webhooks/${webhook.id}/deliveries?limit=0&offset=-1&status=Lost`
        )
        expect(bad.status).toBe(400)
        expect(Object.keys(bad.body?.errors ?? {}).sort()).toEqual(["limit", "offset", "status"])
        const page = yield* raw(key, "GET", `/tenants/${tenant}/webhooks/${webhook.id}/deliveries?limit=500`)
        expect(page.body).toEqual({ items: [], totalCount: 0, offset: 0, limit: 50 })
      })
    )
  })

  describe("tenant isolation", () => {
    it.effect("answers 404 for another tenant's webhook and delivery, for a non-member, and for malformed ids", () =>
      Effect.gen(function* () {
        const mine = yield* owner("mine")
        const theirs = yield* owner("theirs")
        const webhook = yield* theirs.api.webhooks.createWebhook({
          path: { tenant: theirs.tenant },
          payload: { url: "https://hooks.example.com/theirs" }
        })
        const delivery = yield* theirs.api.webhooks.testWebhook({
          path: { tenant: theirs.tenant, webhook: webhook.id }
        })
        const attempts: Array<[method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown]> = [
          ["GET", `/tenants/${mine.tenant}/webhooks/${webhook.id}`],
          [
            "PUT",
            `/tenants/${mine.tenant}/webhooks/${webhook.id}`,
            { url: "https://x.example.com/", eventTypes: [], enabled: true }
          ],
          ["DELETE", `/tenants/${mine.tenant}/webhooks/${webhook.id}`],
          ["POST", `/tenants/${mine.tenant}/webhooks/${webhook.id}/test`],
          ["POST", `/tenants/${mine.tenant}/webhooks/${webhook.id}/rotate-secret`],
          ["GET", `/tenants/${mine.tenant}/webhooks/${webhook.id}/deliveries`],
          ["GET", `/tenants/${mine.tenant}/webhooks/deliveries/${delivery.id}`],
          ["POST", `/tenants/${mine.tenant}/webhooks/deliveries/${delivery.id}/retry`],
          ["GET", `/tenants/${theirs.tenant}/webhooks`],
          ["POST", `/tenants/${theirs.tenant}/webhooks/${webhook.id}/test`],
          ["POST", `/tenants/${theirs.tenant}/webhooks/deliveries/${delivery.id}/retry`],
          ["GET", `/tenants/${mine.tenant}/webhooks/not-a-uuid`],
          ["GET", `/tenants/${mine.tenant}/webhooks/deliveries/not-a-uuid`]
        ]
        for (const [method, path, body] of attempts) {
          const res = yield* raw(mine.key, method, path, body)
          expect([method, path, res.status]).toEqual([method, path, 404])
        }
        const still = yield* theirs.api.webhooks.getWebhook({ path: { tenant: theirs.tenant, webhook: webhook.id } })
        expect(still.url).toBe("https://hooks.example.com/theirs")
      })
    )
  })

  it.effect("documents each event kind in the OpenAPI webhooks section, with the Standard Webhooks headers", () =>
    Effect.gen(function* () {
      const { body } = yield* raw(undefined, "GET", "/openapi.json")
      assert(body !== undefined)
      expect(Object.keys(body.webhooks).sort()).toEqual([...EventType.literals].sort())
      const created = body.webhooks["contact.created"].post
      expect(created.parameters.map((p: { name: string }) => p.name)).toEqual([
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature"
      ])
      const schema = created.requestBody.content["application/json"].schema
      expect(schema.properties.type).toEqual({ type: "string", enum: ["contact.created"] })
      expect(schema.properties.data).toEqual({ $ref: "#/components/schemas/ContactDto" })
      expect(body.components.schemas.ContactDto).toBeDefined()
      const test = body.webhooks["test.webhook"].post.requestBody.content["application/json"].schema
      expect(test.properties.data).toEqual({ $ref: "#/components/schemas/TestWebhookData" })
      expect(body.components.schemas.TestWebhookData.required).toEqual(["webhookId", "message"])
      expect(body.paths["/tenants/{tenant}/webhooks/{webhook}/test"].post.responses["202"]).toBeDefined()
    })
  )
})

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("webhook destinations", (it) => {
  it.effect("refuses plain http and private, loopback, link-local and CGNAT destinations with 400 naming url", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* owner("ssrf")
      const refusals: Array<[string, RegExp]> = [
        ["http://hooks.example.com/", /^Must be an https URL/],
        ["https://127.0.0.1:8443/", /^127\.0\.0\.1 is not a public destination: 127\.0\.0\.1 is a loopback address/],
        ["https://localhost/", /^localhost is not a public destination/],
        ["https://169.254.169.254/latest/meta-data", /169\.254\.169\.254 is a link-local address/],
        ["https://10.1.2.3/", /10\.1\.2\.3 is a private \(RFC 1918\) address/],
        ["https://100.64.0.1/", /carrier-grade NAT/],
        ["https://[fd00::1]/", /IPv6 unique local/],
        ["https://[::ffff:192.168.0.1]/", /private/]
      ]
      for (const [url, reason] of refusals) {
        const res = yield* raw(key, "POST", `/tenants/${tenant}/webhooks`, { url })
        expect([url, res.status]).toEqual([url, 400])
        expect(Object.keys(res.body?.errors ?? {})).toEqual(["url"])
        expect(res.body?.errors.url[0]).toMatch(reason)
      }
      expect((yield* raw(key, "GET", `/tenants/${tenant}/webhooks`)).body).toEqual([])
      const ok = yield* raw(key, "POST", `/tenants/${tenant}/webhooks`, { url: "https://93.184.216.34/hook" })
      expect(ok.status).toBe(201)
      const replaced = yield* raw(key, "PUT", `/tenants/${tenant}/webhooks/${ok.body?.id}`, {
        url: "https://192.168.1.1/",
        eventTypes: [],
        enabled: true
      })
      expect(replaced.status).toBe(400)
      expect(Object.keys(replaced.body?.errors ?? {})).toEqual(["url"])
    })
  )
})
