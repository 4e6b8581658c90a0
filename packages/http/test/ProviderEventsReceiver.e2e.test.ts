import { SANDBOX_NOTIFICATION_SECRET } from "@cisbook/adapters/gocardless/GoCardlessNotificationSecret"
import { ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEventHandling"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { fieldErrors } from "@cisbook/core/Validation"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { parse as parseWebhook } from "gocardless-nodejs"
import { createHmac } from "node:crypto"
import { e2e, SqlTestPorts } from "./E2E.js"

/** A member path as the service's validation problems write it (fieldErrors). */
const member = (...path: ReadonlyArray<PropertyKey>) => Object.keys(fieldErrors([{ path, message: "" }]))[0]!

let counter = 0
/** A GoCardless event with a fresh id, as GoCardless writes one. */
const anEvent = (overrides: Record<string, unknown> = {}) => ({
  id: `EV${process.pid}${Date.now().toString(36)}${++counter}`.toUpperCase(),
  created_at: "2026-11-25T10:15:00.000Z",
  resource_type: "payments",
  action: "failed",
  links: { payment: `PM${counter}` },
  details: {
    origin: "bank",
    cause: "insufficient_funds",
    description: "The customer's account had insufficient funds.",
    scheme: "bacs",
    reason_code: "ARUDD-0",
    will_attempt_retry: false
  },
  metadata: {},
  resource_metadata: {},
  ...overrides
})

const webhookOf = (events: ReadonlyArray<unknown>) =>
  JSON.stringify({ events, meta: { webhook_id: `WB${Date.now().toString(36)}${++counter}`.toUpperCase() } })

/** Signed as GoCardless signs: the hex HMAC-SHA256 of the raw body with the endpoint's secret. */
const sign = (body: string, secret = SANDBOX_NOTIFICATION_SECRET) =>
  createHmac("sha256", secret).update(body).digest("hex")

/** Posts the body byte for byte as GoCardless does, with the signature when given. */
const post = (body: string, signature: string | undefined, contentType = "application/json") =>
  Effect.flatMap(HttpClient.HttpClient, (http) => {
    const request = HttpClientRequest.post("/webhooks/gocardless").pipe(
      HttpClientRequest.setHeader("user-agent", "gocardless-webhook-service/1.1"),
      HttpClientRequest.bodyText(body, contentType)
    )
    return http.execute(
      signature === undefined ? request : HttpClientRequest.setHeader(request, "webhook-signature", signature)
    )
  }).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({
        status: response.status,
        contentType: response.headers["content-type"] ?? "",
        body: text === "" ? undefined : (JSON.parse(text) as Record<string, any>)
      }))
    )
  )

/** How the inbox holds each of these events: its handling, or undefined when it is not there. */
const stored = (ids: ReadonlyArray<string>) =>
  Effect.map(
    Effect.flatMap(ProviderEventReceiving, (events) => events.list(500)),
    (listed) => ids.map((id) => listed.find((e) => e.id === id))
  )

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("receiving GoCardless webhooks over HTTP", (it) => {
  it.effect("stores every event of a signed webhook, pending, and answers 204", () =>
    Effect.gen(function* () {
      const events = [anEvent(), anEvent({ resource_type: "mandates", action: "cancelled", links: { mandate: "MD1" } })]
      const body = webhookOf(events)
      const answer = yield* post(body, sign(body))
      expect(answer).toEqual({ status: 204, contentType: "", body: undefined })
      const [payment, mandate] = yield* stored(events.map((e) => e.id))
      expect(payment).toMatchObject({
        resourceType: "payments",
        action: "failed",
        resourceId: events[0]!.links.payment
      })
      expect(payment?.handled).toBe("pending")
      expect(mandate).toMatchObject({ resourceType: "mandates", action: "cancelled", resourceId: "MD1" })
    })
  )

  it.effect("refuses a wrong or missing signature with 498 and stores nothing", () =>
    Effect.gen(function* () {
      const event = anEvent()
      const body = webhookOf([event])
      const cases = [
        undefined,
        "",
        sign(body, "another secret"),
        sign(`${body} `),
        sign(body).slice(0, 63),
        `${sign(body)}00`,
        "not hex at all"
      ]
      for (const signature of cases) {
        const answer = yield* post(body, signature)
        expect(answer.status).toBe(498)
        expect(answer.contentType).toBe("application/problem+json")
        expect(answer.body).toEqual({
          type: "about:blank",
          title: "Invalid Signature",
          status: 498,
          detail:
            "The Webhook-Signature header is missing or is not the HMAC-SHA256 of the body with the webhook secret. Nothing was stored."
        })
      }
      // A malformed body with a wrong signature is refused for its signature, unread.
      expect((yield* post("{ not json", "00")).status).toBe(498)
      expect(yield* stored([event.id])).toEqual([undefined])
    })
  )

  it.effect("a replayed webhook answers 204 and changes nothing", () =>
    Effect.gen(function* () {
      const event = anEvent()
      const body = webhookOf([event])
      expect((yield* post(body, sign(body))).status).toBe(204)
      const first = yield* stored([event.id])
      // Handled meanwhile: a replay must not make it pending again, nor add a row.
      const work = yield* ProviderEventHandling
      const claimed = yield* work.claim(500, Duration.minutes(1))
      yield* work.record(yield* Effect.forEach(claimed, work.attempt))
      const handled = yield* stored([event.id])
      expect(handled[0]?.handled).toBe("ignored")
      // The same event again, alone and in another webhook with a new one.
      expect((yield* post(body, sign(body))).status).toBe(204)
      const another = anEvent()
      const again = webhookOf([event, another, event])
      expect((yield* post(again, sign(again))).status).toBe(204)
      const listed = yield* Effect.flatMap(ProviderEventReceiving, (events) => events.list(500))
      expect(listed.filter((e) => e.id === event.id)).toEqual(handled)
      expect(listed.filter((e) => e.id === another.id)).toHaveLength(1)
      expect(first[0]?.receivedAt).toEqual(handled[0]?.receivedAt)
    })
  )

  it.effect("takes events in any order, each stored with its own time", () =>
    Effect.gen(function* () {
      const late = anEvent({ created_at: "2026-11-25T12:00:00.000Z" })
      const early = anEvent({ created_at: "2026-11-25T08:00:00.000Z" })
      const body = webhookOf([late, early])
      expect((yield* post(body, sign(body))).status).toBe(204)
      expect((yield* stored([late.id, early.id])).map((e) => e?.handled)).toEqual(["pending", "pending"])
    })
  )

  it.effect("takes 250 events at once, and refuses 251 naming events", () =>
    Effect.gen(function* () {
      const most = Array.from({ length: 250 }, () => anEvent())
      const body = webhookOf(most)
      expect((yield* post(body, sign(body))).status).toBe(204)
      expect((yield* stored(most.map((e) => e.id))).every((e) => e?.handled === "pending")).toBe(true)

      const tooMany = Array.from({ length: 251 }, () => anEvent())
      const over = webhookOf(tooMany)
      const answer = yield* post(over, sign(over))
      expect(answer.status).toBe(400)
      expect(answer.contentType).toBe("application/problem+json")
      expect(answer.body?.errors).toEqual({ events: ["At most 250 events"] })
      expect((yield* stored([tooMany[0]!.id])).at(0)).toBeUndefined()
    })
  )

  it.effect("refuses a body over 1 MiB with 413, and takes one just under", () =>
    Effect.gen(function* () {
      const event = anEvent()
      // Padding in strings of 9,000 characters: the service bounds any one string at 10,000.
      const paddedWith = (pads: number) =>
        webhookOf([
          {
            ...event,
            metadata: Object.fromEntries(Array.from({ length: pads }, (_, i) => [`p${i}`, "x".repeat(9_000)]))
          }
        ])
      const over = paddedWith(120)
      expect(Buffer.byteLength(over)).toBeGreaterThan(1024 * 1024)
      const answer = yield* post(over, sign(over))
      expect(answer.status).toBe(413)
      expect(answer.contentType).toBe("application/problem+json")
      expect((yield* stored([event.id])).at(0)).toBeUndefined()

      const under = paddedWith(110)
      expect(Buffer.byteLength(under)).toBeLessThan(1024 * 1024)
      expect((yield* post(under, sign(under))).status).toBe(204)
      expect((yield* stored([event.id])).at(0)?.handled).toBe("pending")
    })
  )

  it.effect("refuses a signed body that is not such JSON with 400 naming the member, and stores nothing", () =>
    Effect.gen(function* () {
      const good = anEvent()
      const cases: ReadonlyArray<readonly [string, Record<string, ReadonlyArray<string>> | undefined]> = [
        ["{ not json", undefined],
        [JSON.stringify({ meta: { webhook_id: "WB1" } }), { events: ["Required"] }],
        [JSON.stringify({ events: "many" }), { events: [expect.any(String)] }],
        [webhookOf([good, { ...anEvent(), id: 7 }]), { [member("events", 1, "id")]: [expect.any(String)] }],
        [
          webhookOf([good, { ...anEvent(), created_at: "yesterday" }]),
          { [member("events", 1, "created_at")]: [expect.any(String)] }
        ],
        [
          webhookOf([{ ...anEvent(), links: undefined, action: "" }]),
          { [member("events", 0, "links")]: ["Required"], [member("events", 0, "action")]: ["Must not be empty"] }
        ]
      ]
      for (const [body, errors] of cases) {
        const answer = yield* post(body, sign(body))
        expect(answer.status).toBe(400)
        expect(answer.contentType).toBe("application/problem+json")
        if (errors !== undefined) expect(answer.body?.errors).toEqual(errors)
      }
      expect(yield* stored([good.id])).toEqual([undefined])
    })
  )

  it.effect("sends what GoCardless's own client accepts: webhooks.parse reads the same body and signature", () =>
    Effect.gen(function* () {
      const events = [anEvent(), anEvent({ resource_type: "mandates", action: "expired", links: { mandate: "MD9" } })]
      const body = webhookOf(events)
      const signature = sign(body)
      // What an integrator's handler does with the request, byte for byte.
      const parsed = parseWebhook(body, SANDBOX_NOTIFICATION_SECRET, signature)
      expect(parsed.map((e) => [e.id, e.resource_type, e.action])).toEqual(
        events.map((e) => [e.id, e.resource_type, e.action])
      )
      expect(() => parseWebhook(body, "another secret", signature)).toThrow()
      // And the service takes what the client takes.
      expect((yield* post(body, signature)).status).toBe(204)
      expect((yield* stored(events.map((e) => e.id))).map((e) => e?.handled)).toEqual(["pending", "pending"])
    })
  )
})
