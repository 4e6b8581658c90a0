import { WebhookDeliveries } from "@cisbook/core/webhooks/WebhookDeliveries"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import {
  createdWebhookDto,
  deliveryDetailDto,
  deliveryDto,
  deliveryPageDto,
  webhookDto,
  webhookSecretDto
} from "../dto/WebhookDto.js"

export const WebhooksHandlers = HttpApiBuilder.group(CisbookApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    const deliveries = yield* WebhookDeliveries
    return handlers
      .handle("listWebhooks", () => webhooks.list().pipe(Effect.map(Array.map(webhookDto))))
      .handle("createWebhook", ({ payload }) => webhooks.create(payload).pipe(Effect.map(createdWebhookDto)))
      .handle("getWebhook", ({ path }) => webhooks.get(path.webhook).pipe(Effect.map(webhookDto)))
      .handle("replaceWebhook", ({ path, payload }) =>
        webhooks.replace(path.webhook, payload).pipe(Effect.map(webhookDto))
      )
      .handle("deleteWebhook", ({ path }) => webhooks.remove(path.webhook))
      .handle("rotateWebhookSecret", ({ path }) =>
        webhooks.rotateSecret(path.webhook).pipe(Effect.map(webhookSecretDto))
      )
      .handle("testWebhook", ({ path }) => webhooks.test(path.webhook).pipe(Effect.map(deliveryDto)))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        deliveries.list(path.webhook, urlParams).pipe(Effect.map(deliveryPageDto))
      )
      .handle("getWebhookDelivery", ({ path }) => deliveries.get(path.delivery).pipe(Effect.map(deliveryDetailDto)))
      .handle("retryWebhookDelivery", ({ path }) => deliveries.retry(path.delivery))
  })
)
