import { Duration } from "effect"
import type { NewEvent } from "../events/Event.js"
import type { WebhookId } from "../Ids.js"
import { isSuccessStatus } from "./DeliverySchedule.js"
import type { DisabledReason, WebhookDisabledEventData } from "./WebhookDisabledEventData.js"

/** An endpoint whose every attempt has failed for this long is disabled (as Svix does). */
export const DISABLE_AFTER_FAILING_FOR = Duration.days(5)

/** 410 Gone: the receiver says the endpoint is gone for good, so nothing more is sent to it. */
export const GONE = 410

/** The webhook an attempt went to, as it stood when the attempt was claimed. */
export interface Endpoint {
  readonly webhookId: WebhookId
  readonly url: string
  /** The first failed attempt since the last success; null while it answers. */
  readonly failingSince: Date | null
}

/** What an attempt says about its webhook's endpoint. */
export type EndpointVerdict =
  | { readonly _tag: "Answering" }
  | { readonly _tag: "Failing"; readonly since: Date }
  | { readonly _tag: "Disable"; readonly reason: DisabledReason; readonly event: NewEvent }

const disable = (endpoint: Endpoint, reason: DisabledReason, failingSince: Date | null, at: Date): EndpointVerdict => {
  const data: WebhookDisabledEventData = {
    webhookId: endpoint.webhookId,
    url: endpoint.url,
    reason,
    failingSince: failingSince?.toISOString() ?? null,
    disabledAt: at.toISOString()
  }
  return { _tag: "Disable", reason, event: { type: "webhook.disabled", data } }
}

/**
 * The endpoint after an attempt that ended at `at`: a 2xx ends a failing streak, a 410 disables
 * it at once, and a failure 5 days or more after the streak's first disables it.
 */
export const endpointAfterAttempt = (
  endpoint: Endpoint,
  outcome: { readonly at: Date; readonly responseStatus: number | null }
): EndpointVerdict => {
  if (isSuccessStatus(outcome.responseStatus)) return { _tag: "Answering" }
  if (outcome.responseStatus === GONE) return disable(endpoint, "Gone", endpoint.failingSince, outcome.at)
  const since = endpoint.failingSince ?? outcome.at
  return outcome.at.getTime() - since.getTime() >= Duration.toMillis(DISABLE_AFTER_FAILING_FOR)
    ? disable(endpoint, "FailingFor5Days", since, outcome.at)
    : { _tag: "Failing", since }
}
