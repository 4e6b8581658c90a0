import { Duration, Effect, Option, Redacted } from "effect"
import { blankAsNull } from "../BlankAsNull.js"
import { NotFound, Refused, ValidationFailed } from "../Errors.js"
import { isUuid, WebhookId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { Crypto } from "../system/Crypto.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { DeliveryRepo } from "./DeliveryRepo.js"
import { DestinationGuard } from "./DestinationGuard.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { Transactor } from "../system/Transactor.js"
import { WebhookRepo } from "./WebhookRepo.js"
import type { Tenant } from "../tenants/Tenant.js"
import { testWebhookEventData } from "./TestWebhookEventData.js"
import { Webhook } from "./Webhook.js"
import type { WebhookDelivery } from "./WebhookDelivery.js"
import type { NewWebhook, WebhookReplacement } from "./WebhookInput.js"
import { formatWebhookSecret, ROTATED_SECRET_OVERLAP, WEBHOOK_SECRET_BYTES } from "./WebhookSecret.js"

/** A webhook with its signing secret, shown this once. */
export interface WebhookWithSecret {
  readonly webhook: Webhook
  readonly secret: string
}

export class Webhooks extends Effect.Service<Webhooks>()("core/Webhooks", {
  effect: Effect.gen(function* () {
    const repo = yield* WebhookRepo
    const deliveries = yield* DeliveryRepo
    const guard = yield* DestinationGuard
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator
    const crypto = yield* Crypto

    /** The tenant's webhook with the id as it came in a path. */
    const notFoundIn = (tenant: Tenant, id: string) =>
      Effect.fail(new NotFound({ detail: `There is no webhook with the id ${id} in ${tenant.code}.` }))

    const find = (tenant: Tenant, id: string): Effect.Effect<Webhook, NotFound> => {
      const notFound = notFoundIn(tenant, id)
      if (!isUuid(id)) return notFound
      return repo
        .find(tenant.id, WebhookId.make(id))
        .pipe(Effect.flatMap(Option.match({ onNone: () => notFound, onSome: Effect.succeed })))
    }

    const checkDestination = (url: string) =>
      guard.check(url).pipe(Effect.mapError(({ reason }) => ValidationFailed.one("url", reason)))

    const newSecret = Effect.map(crypto.randomBytes(WEBHOOK_SECRET_BYTES), formatWebhookSecret)

    const list = (): Effect.Effect<ReadonlyArray<Webhook>, NotFound, CurrentTenant> =>
      Effect.flatMap(CurrentTenant, ({ tenant }) => repo.list(tenant.id))

    const get = (id: string): Effect.Effect<Webhook, NotFound, CurrentTenant> =>
      Effect.flatMap(CurrentTenant, ({ tenant }) => find(tenant, id))

    /** Creates a webhook after checking where its URL leads; its secret is returned here and never again. */
    const create = (input: NewWebhook): Effect.Effect<WebhookWithSecret, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        yield* checkDestination(input.url)
        const webhook = new Webhook({
          id: WebhookId.make(yield* ids.uuid),
          tenantId: tenant.id,
          url: input.url,
          description: blankAsNull(input.description),
          eventTypes: [...new Set(input.eventTypes ?? [])],
          enabled: input.enabled ?? true,
          createdAt: yield* clock.now
        })
        const secret = yield* newSecret
        yield* repo.insert(webhook, Redacted.make(secret))
        return { webhook, secret }
      }).pipe(Effect.withSpan("Webhooks.create"))

    const replace = (
      id: string,
      input: WebhookReplacement
    ): Effect.Effect<Webhook, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const existing = yield* find((yield* CurrentTenant).tenant, id)
        yield* checkDestination(input.url)
        const updated = new Webhook({
          ...existing,
          url: input.url,
          description: blankAsNull(input.description),
          eventTypes: [...new Set(input.eventTypes)],
          enabled: input.enabled
        })
        yield* repo.update(updated)
        return updated
      }).pipe(Effect.withSpan("Webhooks.replace"))

    /** Deletes the webhook and its deliveries. */
    const remove = (id: string): Effect.Effect<void, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const webhook = yield* find(tenant, id)
        // Of requests racing to delete it, only the one whose DELETE removed the row succeeds.
        if (!(yield* repo.remove(webhook.tenantId, webhook.id))) return yield* notFoundIn(tenant, id)
      })

    /**
     * A new secret for the webhook, signing every attempt from now on; the old one signs them
     * too for 24 hours, so a receiver can switch without refusing any. Returned here and never again.
     */
    const rotateSecret = (id: string): Effect.Effect<string, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const webhook = yield* find(tenant, id)
        const secret = yield* newSecret
        const now = yield* clock.now
        const previousUntil = new Date(now.getTime() + Duration.toMillis(ROTATED_SECRET_OVERLAP))
        if (!(yield* repo.setSecret(webhook.tenantId, webhook.id, Redacted.make(secret), previousUntil))) {
          return yield* notFoundIn(tenant, id)
        }
        return secret
      }).pipe(Effect.withSpan("Webhooks.rotateSecret"))

    /** Queues a test.webhook delivery to this one webhook; the dispatcher sends it. */
    const testIn = (tenant: Tenant, id: string): Effect.Effect<WebhookDelivery, NotFound | Refused> =>
      Effect.gen(function* () {
        const webhook = yield* find(tenant, id)
        if (!webhook.enabled) {
          return yield* new Refused({ detail: `The webhook ${webhook.id} is disabled: enable it to send a test.` })
        }
        const deliveryId = yield* transaction(
          deliveries.queueFor(tenant.id, webhook.id, { type: "test.webhook", data: testWebhookEventData(webhook.id) })
        )
        const queued = yield* deliveries.find(tenant.id, deliveryId)
        if (Option.isNone(queued)) return yield* Effect.die(`The test delivery ${deliveryId} was not stored`)
        return queued.value.delivery
      }).pipe(Effect.withSpan("Webhooks.test"))

    const test = (id: string) => Effect.flatMap(CurrentTenant, ({ tenant }) => testIn(tenant, id))

    return { list, get, create, replace, remove, rotateSecret, test } as const
  })
}) {}
