import { isSuccessStatus } from "@cisbook/core/webhooks/DeliverySchedule"
import { WebhookDispatch } from "@cisbook/core/webhooks/WebhookDispatch"
import { leasedWorker } from "./LeasedWorker.js"
import { leasedWorkerConfig, leasedWorkerLive } from "./LeasedWorkerConfig.js"

/** WEBHOOK_DISPATCHER (on unless false) and its settings. */
export const WebhookDispatcherConfig = leasedWorkerConfig("WEBHOOK", {
  switch: "WEBHOOK_DISPATCHER",
  concurrency: [50, 1, 1000],
  // An attempt takes 15 s at most.
  leaseSeconds: [60, 30, 3600]
})

/**
 * The dispatcher: a leased worker over the webhook deliveries (see LeasedWorker). Attempts in
 * flight when it stops are sent again by another dispatcher, with the same webhook-id.
 */
export const webhookDispatcher = leasedWorker(WebhookDispatch, {
  worker: "Webhook dispatcher",
  items: "deliveries",
  work: "webhook deliveries",
  failed: (done) => !isSuccessStatus(done.attempt.responseStatus)
})

export const WebhookDispatcherLive = leasedWorkerLive(WebhookDispatcherConfig, webhookDispatcher)
