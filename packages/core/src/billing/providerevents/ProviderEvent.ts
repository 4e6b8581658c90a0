import { Schema } from "effect"

/** How the worker settled a provider event; `pending` until it has. */
export const ProviderEventHandling = Schema.Literal("pending", "applied", "ignored", "duplicate")
export type ProviderEventHandling = typeof ProviderEventHandling.Type

/** A settled event: `applied` changed something, `duplicate` found it already so, `ignored` had nothing to do. */
export type ProviderEventOutcome = Exclude<ProviderEventHandling, "pending">

/**
 * What the direct debit provider says happened to one of its resources (a GoCardless event):
 * `resourceType` and `action` are the provider's words (`payments`, `failed`), `resourceId` the
 * resource's id (PM..., MD...) when it is one the provider links to.
 */
export interface ProviderEvent {
  readonly id: string
  readonly createdAt: Date
  readonly resourceType: string
  readonly action: string
  readonly resourceId: string | null
  readonly links: Readonly<Record<string, string>>
  readonly details: Readonly<Record<string, unknown>>
  readonly metadata: Readonly<Record<string, unknown>>
}

/** One delivery of events (a GoCardless notification, GoCardless's webhook), with the provider's id of it. */
export interface ProviderEventBatch {
  readonly notificationId: string | null
  readonly events: ReadonlyArray<ProviderEvent>
}

/** An event as support staff see it in the inbox. */
export interface ProviderEventSummary {
  readonly id: string
  readonly resourceType: string
  readonly action: string
  readonly resourceId: string | null
  readonly receivedAt: Date
  readonly handled: ProviderEventHandling
}

/** The link naming the event's own resource: `links.payment` of a `payments` event, and so on. */
export const resourceIdOf = (resourceType: string, links: Readonly<Record<string, string>>): string | null => {
  const singular = resourceType.endsWith("s") ? resourceType.slice(0, -1) : resourceType
  return links[singular] ?? null
}
