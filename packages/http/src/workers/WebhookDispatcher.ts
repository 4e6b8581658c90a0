import { isSuccessStatus } from "@cisbook/core/webhooks/DeliverySchedule"
import { WebhookDispatch } from "@cisbook/core/usecases/WebhookDispatch"
import { Duration, Effect, Layer } from "effect"
import { DispatcherConfig, type DispatcherOptions } from "./DispatcherConfig.js"
import { runLeasedWorker } from "./LeasedWorker.js"

/**
 * The dispatcher: a leased worker over the webhook deliveries (see LeasedWorker). Attempts in
 * flight when it stops are sent again by another dispatcher, with the same webhook-id.
 */
export const webhookDispatcher = (options: DispatcherOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const dispatch = yield* WebhookDispatch
      yield* Effect.logInfo(
        `Webhook dispatcher started: up to ${options.concurrency} deliveries at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* runLeasedWorker(
        {
          name: "webhook deliveries",
          claim: (limit) => dispatch.claim(limit, options.lease),
          attempt: dispatch.attempt,
          record: dispatch.record,
          failed: (done) => !isSuccessStatus(done.attempt.responseStatus)
        },
        options
      )
    })
  )

/** The dispatcher as WEBHOOK_DISPATCHER, WEBHOOK_POLL_INTERVAL_MS, WEBHOOK_CONCURRENCY and WEBHOOK_LEASE_SECONDS say. */
export const WebhookDispatcherLive = Layer.unwrapEffect(
  Effect.map(DispatcherConfig, ({ enabled, ...options }) => (enabled ? webhookDispatcher(options) : Layer.empty))
)
