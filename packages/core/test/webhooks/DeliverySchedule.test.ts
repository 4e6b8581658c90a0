import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { afterAttempt, type DeliverySchedule, dueAt, firstAttempt } from "../../src/webhooks/DeliverySchedule.js"
import { formatWebhookSecret } from "../../src/webhooks/WebhookSecret.js"
import { webhookBody } from "../../src/webhooks/WebhookMessage.js"
import { decode } from "../cis/decode.js"
import { WebhookUrl, schemeProblem } from "../../src/webhooks/WebhookUrl.js"

const url = decode(WebhookUrl)
const start = new Date("2026-11-21T09:00:00.000Z")
const plus = (seconds: number) => new Date(start.getTime() + seconds * 1000)
const HOUR = 3600

describe("the automatic retry schedule", () => {
  it("retries 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failed attempt, then no more", () => {
    let schedule: DeliverySchedule = firstAttempt(start)
    let now = start
    const gaps: Array<number | null> = []
    for (let attempt = 1; attempt <= 8; attempt++) {
      schedule = afterAttempt(schedule, { at: now, responseStatus: 503 })
      gaps.push(schedule.nextAttemptAt === null ? null : (schedule.nextAttemptAt.getTime() - now.getTime()) / 1000)
      now = schedule.nextAttemptAt ?? now
    }
    expect(gaps).toEqual([5, 300, 1800, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, null])
    expect(schedule).toEqual({
      status: "Failed",
      attempts: 8,
      automaticAttempts: 8,
      nextAttemptAt: null,
      retryRequestedAt: null
    })
  })

  it("ends at the first 2xx, whatever came before; 3xx and no answer are failures", () => {
    const failed = afterAttempt(firstAttempt(start), { at: start, responseStatus: null })
    expect(failed).toMatchObject({ status: "Failed", attempts: 1, nextAttemptAt: plus(5) })
    expect(afterAttempt(failed, { at: plus(5), responseStatus: 302 })).toMatchObject({
      status: "Failed",
      nextAttemptAt: plus(5 + 300)
    })
    for (const status of [200, 202, 204, 299]) {
      expect(afterAttempt(failed, { at: plus(5), responseStatus: status })).toEqual({
        status: "Succeeded",
        attempts: 2,
        automaticAttempts: 1,
        nextAttemptAt: null,
        retryRequestedAt: null
      })
    }
  })

  it("leaves the automatic schedule as it was after a requested retry fails, and is due at once while one waits", () => {
    const failed = afterAttempt(firstAttempt(start), { at: start, responseStatus: 500 })
    const requested: DeliverySchedule = { ...failed, status: "Pending", retryRequestedAt: plus(2) }
    expect(dueAt(requested)).toEqual(plus(2))
    expect(afterAttempt(requested, { at: plus(3), responseStatus: 500 })).toEqual({
      status: "Failed",
      attempts: 2,
      automaticAttempts: 1,
      nextAttemptAt: plus(5),
      retryRequestedAt: null
    })
    expect(afterAttempt(requested, { at: plus(3), responseStatus: 200 })).toMatchObject({
      status: "Succeeded",
      nextAttemptAt: null
    })
  })
})

describe("webhook rules", () => {
  it("shows a secret as whsec_ and the key in base64", () => {
    expect(formatWebhookSecret(Uint8Array.from([0xfb, 0xff, 0x00, 0x61]))).toBe("whsec_+/8AYQ==")
  })

  it("sends the kind, when it happened and the data", () => {
    expect(JSON.parse(webhookBody({ type: "contact.deleted", occurredAt: start, data: { code: "A" } }))).toEqual({
      type: "contact.deleted",
      timestamp: "2026-11-21T09:00:00.000Z",
      data: { code: "A" }
    })
  })

  it("takes absolute http(s) URLs without credentials, and https alone unless private targets are allowed", () => {
    expect(url(" https://hooks.example.com/x?y=1 ")).toEqual(Either.right("https://hooks.example.com/x?y=1"))
    expect(url("/relative")).toEqual(Either.left(["Must be an absolute URL such as https://example.com/webhooks"]))
    expect(url("ftp://example.com/")).toEqual(Either.left(["Must be an https URL"]))
    expect(url("https://user:pw@example.com/")).toEqual(Either.left(["Must not carry a user name or password"]))
    expect(url(`https://example.com/${"a".repeat(2048)}`)).toEqual(Either.left(["A URL has at most 2048 characters"]))
    expect(schemeProblem(new URL("https://a.example"), false)).toBeUndefined()
    expect(schemeProblem(new URL("http://a.example"), false)).toMatch(/^Must be an https URL/)
    expect(schemeProblem(new URL("http://a.example"), true)).toBeUndefined()
  })
})
