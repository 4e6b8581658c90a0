import { Clock } from "@cisbook/core/system/Clock"
import { Effect } from "effect"
import { notFound, ok, type SandboxAnswer, sandboxId, validationFailed } from "./SandboxAnswer.js"
import { type Change, eventsOf, notificationsOf } from "./SandboxEvents.js"
import { type Page, pageOf, type Paged, type Query, queryValues } from "./SandboxPaging.js"
import { type Kind, type ListFilter, makeSandboxStore, publicView, type Resource } from "./SandboxStore.js"

export type Json = Record<string, unknown>

export const asObject = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {}
export const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined

export const CREDITOR = "CR000SANDBOX"
export const ORGANISATION = "OR000SANDBOX"

export const liveMandate = ["pending_customer_approval", "pending_submission", "submitted", "active"]
export const cancellablePayment = ["pending_customer_approval", "pending_submission"]

/**
 * What every resource of the sandbox stands on: the store, the clock, and the answers GoCardless
 * gives alike for any resource (one shown, not found, a create under an idempotency key, a list
 * page), with the events a change records.
 */
export const makeSandboxResources = Effect.gen(function* () {
  const store = yield* makeSandboxStore
  const clock = yield* Clock

  const shown = (kind: Kind, resource: Resource, status = 200) => ok({ [kind]: publicView(resource) }, status)

  const find = (kind: Kind, id: string, answer: (resource: Resource) => Effect.Effect<SandboxAnswer>) =>
    store.transaction(
      Effect.flatMap(store.load(kind, id), (resource) =>
        resource === undefined ? Effect.succeed(notFound()) : answer(resource)
      )
    )

  const get = (kind: Kind) => (id: string) => find(kind, id, (resource) => Effect.succeed(shown(kind, resource)))

  /** Records the events of changes made together, and the notification that tells of them, in the caller's transaction. */
  const record = (changes: ReadonlyArray<Change>) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const events = eventsOf(changes, now)
      yield* store.recordEvents(events, notificationsOf(events), now)
    })

  /** Moves a resource to a status; the change, for its events. */
  const moved = (
    resourceType: "mandates" | "payments",
    resource: Resource,
    status: string,
    details?: Change["details"],
    action: string = status
  ) =>
    Effect.as(store.save({ ...resource, status }), {
      resourceType,
      resource,
      action,
      ...(details === undefined ? {} : { details })
    } satisfies Change)

  /** A create under an idempotency key: a repeated key answers 409 naming what the first request made. */
  const create = (
    kind: Kind,
    prefix: string,
    key: string | undefined,
    make: (id: string, now: Date) => Resource,
    created: (resource: Resource) => ReadonlyArray<Change> = () => []
  ) =>
    store.transaction(
      Effect.gen(function* () {
        const id = sandboxId(prefix)
        const now = yield* clock.now
        const earlier = key === undefined ? undefined : yield* store.claimKey(kind, key, id, now)
        if (earlier !== undefined) {
          const message = "A resource has already been created with this idempotency key"
          return {
            status: 409,
            body: {
              error: {
                message,
                documentation_url: "https://developer.gocardless.com/api-reference#idempotent_creation_conflict",
                type: "invalid_state",
                request_id: sandboxId("RQ"),
                code: 409,
                errors: [
                  { reason: "idempotent_creation_conflict", message, links: { conflicting_resource_id: earlier } }
                ]
              }
            }
          }
        }
        const resource = make(id, now)
        yield* store.insert(kind, resource, now)
        yield* record(created(resource))
        return shown(kind, resource, 201)
      })
    )

  /** A list answer: `{ <kind>: [...], meta: { cursors, limit } }`, or 422 for bad paging. */
  const listed = <A>(
    name: string,
    query: Query,
    list: (page: Page) => Effect.Effect<Paged<A> | SandboxAnswer>
  ): Effect.Effect<SandboxAnswer> => {
    const page = pageOf(query)
    if ("field" in page) return Effect.succeed(validationFailed([page], `/${name}`))
    return Effect.map(list(page), (paged) =>
      "items" in paged ? ok({ [name]: paged.items, meta: { cursors: paged.cursors, limit: page.limit } }) : paged
    )
  }

  /** The filters a list takes, from the query: each a query parameter and where it looks. */
  const filtersOf = (query: Query, by: Record<string, ReadonlyArray<string>>): Array<ListFilter> =>
    Object.entries(by).flatMap(([name, path]) => {
      const values = queryValues(query, name)
      return values === undefined ? [] : [{ path, values }]
    })

  const shownAll = (paged: Paged<Resource>): Paged<Resource> => ({
    ...paged,
    items: paged.items.map((resource) => publicView(resource) as Resource)
  })

  return { store, clock, shown, find, get, record, moved, create, listed, filtersOf, shownAll } as const
})

export type SandboxResources = Effect.Effect.Success<typeof makeSandboxResources>
