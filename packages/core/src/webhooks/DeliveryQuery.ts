import { Effect } from "effect"
import type { ValidationFailed } from "../Errors.js"
import type { WebhookId } from "../Ids.js"
import { pageAsked } from "../Paging.js"
import type { DeliveryStatus } from "./WebhookDelivery.js"

/** A page of deliveries as a caller asks for it; an absent member takes its default. */
export interface DeliveryListRequest {
  readonly status?: DeliveryStatus | undefined
  readonly offset?: number | undefined
  readonly limit?: number | undefined
}

/** A page of deliveries as a store is asked for it: newest first. */
export interface DeliveryQuery {
  /** Only this webhook's deliveries; null for every webhook of the tenant. */
  readonly webhookId: WebhookId | null
  readonly status: DeliveryStatus | null
  readonly offset: number
  readonly limit: number
}

export const deliveryQuery = (
  webhookId: WebhookId | null,
  request: DeliveryListRequest
): Effect.Effect<DeliveryQuery, ValidationFailed> =>
  pageAsked(request).pipe(
    Effect.map(({ limit, offset }) => ({
      webhookId,
      status: request.status ?? null,
      offset,
      limit
    }))
  )
