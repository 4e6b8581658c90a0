import { Effect, Option } from "effect"
import { NotFound, Refused, type ValidationFailed } from "../Errors.js"
import { DeliveryId, isUuid, WebhookId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { type DeliveryPage, DeliveryRepo } from "./DeliveryRepo.js"
import { WebhookRepo } from "./WebhookRepo.js"
import type { Tenant } from "../tenants/Tenant.js"
import { type DeliveryListRequest, deliveryQuery } from "./DeliveryQuery.js"
import type { DeliveryDetail } from "./WebhookDelivery.js"

export interface DeliveryListPage extends DeliveryPage {
  readonly offset: number
  /** The page size served: at most the maximum, whatever was asked. */
  readonly limit: number
}

export class WebhookDeliveries extends Effect.Service<WebhookDeliveries>()("core/WebhookDeliveries", {
  effect: Effect.gen(function* () {
    const repo = yield* DeliveryRepo
    const webhooks = yield* WebhookRepo
    const clock = yield* Clock

    const find = (tenant: Tenant, id: string): Effect.Effect<DeliveryDetail, NotFound> => {
      const notFound = new NotFound({ detail: `There is no webhook delivery with the id ${id} in ${tenant.code}.` })
      if (!isUuid(id)) return Effect.fail(notFound)
      return repo
        .find(tenant.id, DeliveryId.make(id))
        .pipe(Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed })))
    }

    const page = (tenant: Tenant, webhookId: WebhookId | null, request: DeliveryListRequest) =>
      Effect.gen(function* () {
        const query = yield* deliveryQuery(webhookId, request)
        const found = yield* repo.list(tenant.id, query)
        return { ...found, offset: query.offset, limit: query.limit }
      })

    /** A page of one webhook's deliveries, newest first. */
    const list = (
      webhookId: string,
      request: DeliveryListRequest
    ): Effect.Effect<DeliveryListPage, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const notFound = new NotFound({ detail: `There is no webhook with the id ${webhookId} in ${tenant.code}.` })
        if (!isUuid(webhookId)) return yield* notFound
        const webhook = yield* webhooks.find(tenant.id, WebhookId.make(webhookId))
        if (Option.isNone(webhook)) return yield* notFound
        return yield* page(tenant, webhook.value.id, request)
      }).pipe(Effect.withSpan("WebhookDeliveries.list"))

    const get = (id: string): Effect.Effect<DeliveryDetail, NotFound, CurrentTenant> =>
      Effect.flatMap(CurrentTenant, ({ tenant }) => find(tenant, id))

    /**
     * Asks for one more attempt of a Failed delivery, sent at once by a dispatcher; the automatic
     * schedule stays as it was.
     */
    const retryIn = (tenant: Tenant, id: string): Effect.Effect<void, NotFound | Refused> =>
      Effect.gen(function* () {
        const { delivery } = yield* find(tenant, id)
        if (delivery.status !== "Failed") {
          return yield* new Refused({
            detail: `The delivery ${delivery.id} is ${delivery.status}: only a Failed delivery can be retried.`
          })
        }
        const webhook = yield* webhooks.find(tenant.id, delivery.webhookId)
        if (Option.isNone(webhook) || !webhook.value.enabled) {
          return yield* new Refused({
            detail: `The webhook ${delivery.webhookId} is disabled: enable it to retry its deliveries.`
          })
        }
        const requested = yield* repo.requestRetry(tenant.id, delivery.id, yield* clock.now)
        if (!requested) {
          return yield* new Refused({
            detail: `The delivery ${delivery.id} is being sent right now; see its attempts once this one is over.`
          })
        }
      }).pipe(Effect.withSpan("WebhookDeliveries.retry"))

    const retry = (id: string) => Effect.flatMap(CurrentTenant, ({ tenant }) => retryIn(tenant, id))

    /** A page of the deliveries of every webhook of the tenant, newest first: for support staff (the admin CLI). */
    const listAll = (request: DeliveryListRequest): Effect.Effect<DeliveryListPage, ValidationFailed, CurrentTenant> =>
      Effect.flatMap(CurrentTenant, ({ tenant }) => page(tenant, null, request))

    return { list, listAll, get, retry } as const
  })
}) {}
