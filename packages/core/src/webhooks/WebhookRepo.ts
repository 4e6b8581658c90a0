import { Context, type Effect, type Option, type Redacted } from "effect"
import type { TenantId, WebhookId } from "../Ids.js"
import type { Webhook } from "./Webhook.js"

export class WebhookRepo extends Context.Tag("core/WebhookRepo")<
  WebhookRepo,
  {
    readonly insert: (webhook: Webhook, secret: Redacted.Redacted<string>) => Effect.Effect<void>
    readonly find: (tenantId: TenantId, id: WebhookId) => Effect.Effect<Option.Option<Webhook>>
    /** The tenant's webhooks, oldest first. */
    readonly list: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<Webhook>>
    /** Replaces the url, description, event types and enabled flag; enabling it forgets its failing streak. */
    readonly update: (webhook: Webhook) => Effect.Effect<void>
    /** Removes the webhook and its deliveries; false when the tenant has no such webhook. */
    readonly remove: (tenantId: TenantId, id: WebhookId) => Effect.Effect<boolean>
    /**
     * Makes `secret` the webhook's, keeping the one it replaces to sign deliveries too until
     * `previousUntil` (a secret rotated out before that is dropped). False when the tenant has
     * no such webhook.
     */
    readonly setSecret: (
      tenantId: TenantId,
      id: WebhookId,
      secret: Redacted.Redacted<string>,
      previousUntil: Date
    ) => Effect.Effect<boolean>
  }
>() {}
