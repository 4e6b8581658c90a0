import { DeliveryId, TenantId, WebhookId } from "@cisbook/core/Ids"
import { Webhook } from "@cisbook/core/webhooks/Webhook"
import { WebhookDelivery } from "@cisbook/core/webhooks/WebhookDelivery"
import { WebhookDeliveryDto, WebhookDto } from "@cisbook/sdk/WebhookDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { deliveryDto, webhookDto } from "../src/dto/WebhookDto.js"
import { withRealInstants } from "./RealInstants.js"

const encodeWebhook = Schema.encodeSync(WebhookDto)
const encodeDelivery = Schema.encodeSync(WebhookDeliveryDto)

const webhook = new Webhook({
  id: WebhookId.make("0197a3c4-4444-7000-8000-000000000001"),
  tenantId: TenantId.make("0197a3c4-2222-7000-8000-000000000001"),
  url: "https://hooks.example.com/cisbook",
  description: null,
  eventTypes: ["contact.created"],
  enabled: true,
  createdAt: new Date("2026-11-29T10:00:00Z")
})

const delivery = new WebhookDelivery({
  id: DeliveryId.make("0197a3c4-5555-7000-8000-000000000001"),
  tenantId: webhook.tenantId,
  webhookId: webhook.id,
  eventId: "0197a3c4-6666-7000-8000-000000000001",
  eventType: "contact.created",
  status: "Failed",
  attempts: 2,
  createdAt: new Date("2026-11-29T10:00:00Z"),
  lastAttemptAt: new Date("2026-11-29T10:01:00Z"),
  nextAttemptAt: null,
  responseStatus: 503,
  responseBody: "busy"
})

// The DTOs are built without the constructors' validation: the endpoint's encoding still checks them.
describe("webhookDto", () => {
  it.prop("encodes as the validated DTO does, for any webhook", [withRealInstants(Webhook)], ([webhook]) => {
    const validated = WebhookDto.make({
      id: webhook.id,
      url: webhook.url,
      description: webhook.description,
      eventTypes: webhook.eventTypes,
      enabled: webhook.enabled,
      createdAt: webhook.createdAt
    })
    expect(encodeWebhook(webhookDto(webhook))).toStrictEqual(encodeWebhook(validated))
  })

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    expect(encodeWebhook(webhookDto(webhook))).toStrictEqual({
      id: webhook.id,
      url: "https://hooks.example.com/cisbook",
      description: null,
      eventTypes: ["contact.created"],
      enabled: true,
      createdAt: "2026-11-29T10:00:00.000Z"
    })
    expect(() =>
      encodeWebhook(webhookDto(new Webhook({ ...webhook, eventTypes: ["contact.lost" as "contact.created"] }, true)))
    ).toThrow()
    expect(() =>
      encodeWebhook(webhookDto(new Webhook({ ...webhook, enabled: "yes" as unknown as boolean }, true)))
    ).toThrow()
  })
})

describe("deliveryDto", () => {
  it.prop("encodes as the validated DTO does, for any delivery", [withRealInstants(WebhookDelivery)], ([delivery]) => {
    const validated = WebhookDeliveryDto.make({
      id: delivery.id,
      webhookId: delivery.webhookId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attempts,
      createdAt: delivery.createdAt,
      lastAttemptAt: delivery.lastAttemptAt,
      nextAttemptAt: delivery.nextAttemptAt,
      responseStatus: delivery.responseStatus,
      responseBody: delivery.responseBody
    })
    expect(encodeDelivery(deliveryDto(delivery))).toStrictEqual(encodeDelivery(validated))
  })

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    expect(encodeDelivery(deliveryDto(delivery))).toStrictEqual({
      id: delivery.id,
      webhookId: webhook.id,
      eventId: "0197a3c4-6666-7000-8000-000000000001",
      eventType: "contact.created",
      status: "Failed",
      attempts: 2,
      createdAt: "2026-11-29T10:00:00.000Z",
      lastAttemptAt: "2026-11-29T10:01:00.000Z",
      nextAttemptAt: null,
      responseStatus: 503,
      responseBody: "busy"
    })
    expect(() => encodeDelivery(deliveryDto(new WebhookDelivery({ ...delivery, attempts: 1.5 }, true)))).toThrow()
    expect(() =>
      encodeDelivery(deliveryDto(new WebhookDelivery({ ...delivery, status: "Lost" as "Failed" }, true)))
    ).toThrow()
  })
})
