import type { WebhookWithSecret } from "@cisbook/core/webhooks/Webhooks"
import type { Webhook } from "@cisbook/core/webhooks/Webhook"
import type { DeliveryDetail, WebhookDelivery } from "@cisbook/core/webhooks/WebhookDelivery"
import type { DeliveryListPage } from "@cisbook/core/webhooks/WebhookDeliveries"
import {
  CreatedWebhookDto,
  DeliveryAttemptDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookSecretDto
} from "@cisbook/sdk/WebhookDtos"

const webhookFields = (webhook: Webhook) => ({
  id: webhook.id,
  url: webhook.url,
  description: webhook.description,
  eventTypes: webhook.eventTypes,
  enabled: webhook.enabled,
  createdAt: webhook.createdAt
})

/**
 * A webhook as its list shows it. Built without the constructor's validation, as a list's items
 * are (the members are the domain's, already valid, and the endpoint's schema checks them again as
 * it encodes); so is a delivery.
 */
export const webhookDto = (webhook: Webhook) => new WebhookDto(webhookFields(webhook), true)

export const createdWebhookDto = ({ secret, webhook }: WebhookWithSecret) =>
  new CreatedWebhookDto({ ...webhookFields(webhook), secret })

export const webhookSecretDto = (secret: string) => new WebhookSecretDto({ secret })

const deliveryFields = (d: WebhookDelivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  createdAt: d.createdAt,
  lastAttemptAt: d.lastAttemptAt,
  nextAttemptAt: d.nextAttemptAt,
  responseStatus: d.responseStatus,
  responseBody: d.responseBody
})

export const deliveryDto = (delivery: WebhookDelivery) => new WebhookDeliveryDto(deliveryFields(delivery), true)

export const deliveryPageDto = (page: DeliveryListPage) => ({ ...page, items: page.items.map(deliveryDto) })

export const deliveryDetailDto = ({ attemptLog, delivery }: DeliveryDetail) =>
  new WebhookDeliveryDetailDto({
    ...deliveryFields(delivery),
    attemptLog: attemptLog.map(
      (a) =>
        new DeliveryAttemptDto({ at: a.at, responseStatus: a.responseStatus, durationMs: a.durationMs, error: a.error })
    )
  })
