import { Effect, Layer } from "effect"
import { destinationGuard } from "./DestinationGuardLive.js"
import { httpWebhookSender } from "./HttpWebhookSender.js"
import { AllowPrivateTargets } from "./AllowPrivateTargets.js"

/** Where webhooks may go, and how they are sent there. */
export const webhookTransport = (options: { readonly allowPrivateTargets: boolean }) =>
  Layer.merge(destinationGuard(options), httpWebhookSender(options))

/** As WEBHOOK_ALLOW_PRIVATE_TARGETS says. */
export const WebhookTransportLive = Layer.unwrapEffect(
  Effect.map(AllowPrivateTargets, (allowPrivateTargets) => webhookTransport({ allowPrivateTargets }))
)
