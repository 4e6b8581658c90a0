import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { WebhookDeliveries } from "@cisbook/core/webhooks/WebhookDeliveries"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { createdWebhookDto, deliveryDetailDto, deliveryDto, webhookDto, webhookSecretDto } from "../dto/WebhookDto.js"

export const WebhooksHandlers = HttpApiBuilder.group(CisbookApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    const deliveries = yield* WebhookDeliveries
    return handlers
      .handle("listWebhooks", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => webhooks.list(user, path.tenant)),
          Effect.map(Array.map(webhookDto))
        )
      )
      .handle("createWebhook", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => webhooks.create(user, path.tenant, payload)),
          Effect.map(createdWebhookDto)
        )
      )
      .handle("getWebhook", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => webhooks.get(user, path.tenant, path.webhook)),
          Effect.map(webhookDto)
        )
      )
      .handle("replaceWebhook", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => webhooks.replace(user, path.tenant, path.webhook, payload)),
          Effect.map(webhookDto)
        )
      )
      .handle("deleteWebhook", ({ path }) =>
        CurrentUser.pipe(Effect.flatMap((user) => webhooks.remove(user, path.tenant, path.webhook)))
      )
      .handle("rotateWebhookSecret", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => webhooks.rotateSecret(user, path.tenant, path.webhook)),
          Effect.map(webhookSecretDto)
        )
      )
      .handle("testWebhook", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => webhooks.test(user, path.tenant, path.webhook)),
          Effect.map(deliveryDto)
        )
      )
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => deliveries.list(user, path.tenant, path.webhook, urlParams)),
          Effect.map((page) => ({ ...page, items: page.items.map(deliveryDto) }))
        )
      )
      .handle("getWebhookDelivery", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => deliveries.get(user, path.tenant, path.delivery)),
          Effect.map(deliveryDetailDto)
        )
      )
      .handle("retryWebhookDelivery", ({ path }) =>
        CurrentUser.pipe(Effect.flatMap((user) => deliveries.retry(user, path.tenant, path.delivery)))
      )
  })
)
