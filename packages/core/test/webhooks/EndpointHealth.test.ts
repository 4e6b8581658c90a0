import { describe, expect, it } from "@effect/vitest"
import { WebhookId } from "../../src/Ids.js"
import { type Endpoint, endpointAfterAttempt } from "../../src/webhooks/EndpointHealth.js"

const start = new Date("2026-11-21T09:00:00.000Z")
const plus = (millis: number) => new Date(start.getTime() + millis)
const DAY = 24 * 3600_000
const endpoint = (failingSince: Date | null): Endpoint => ({
  webhookId: WebhookId.make("0193a5f2-7c1e-7b61-9d2a-3f4e5a6b7c8d"),
  url: "https://hooks.example.com/cisbook",
  failingSince
})

describe("endpoint health after an attempt", () => {
  it("a 2xx ends a failing streak; a failure starts one or keeps its start", () => {
    expect(endpointAfterAttempt(endpoint(start), { at: plus(DAY), responseStatus: 204 })).toEqual({ _tag: "Answering" })
    expect(endpointAfterAttempt(endpoint(null), { at: start, responseStatus: null })).toEqual({
      _tag: "Failing",
      since: start
    })
    expect(endpointAfterAttempt(endpoint(start), { at: plus(DAY), responseStatus: 500 })).toEqual({
      _tag: "Failing",
      since: start
    })
  })

  it("a failure 5 days after the streak began disables the endpoint, with a webhook.disabled event", () => {
    expect(endpointAfterAttempt(endpoint(start), { at: plus(5 * DAY - 1), responseStatus: 503 })._tag).toBe("Failing")
    expect(endpointAfterAttempt(endpoint(start), { at: plus(5 * DAY), responseStatus: 302 })).toEqual({
      _tag: "Disable",
      reason: "FailingFor5Days",
      event: {
        type: "webhook.disabled",
        data: {
          webhookId: "0193a5f2-7c1e-7b61-9d2a-3f4e5a6b7c8d",
          url: "https://hooks.example.com/cisbook",
          reason: "FailingFor5Days",
          failingSince: start.toISOString(),
          disabledAt: plus(5 * DAY).toISOString()
        }
      }
    })
  })

  it("410 Gone disables it at once; other 4xx are failures like any", () => {
    expect(endpointAfterAttempt(endpoint(null), { at: start, responseStatus: 410 })).toMatchObject({
      _tag: "Disable",
      reason: "Gone",
      event: { data: { reason: "Gone", failingSince: null } }
    })
    expect(endpointAfterAttempt(endpoint(null), { at: start, responseStatus: 404 })._tag).toBe("Failing")
  })
})
