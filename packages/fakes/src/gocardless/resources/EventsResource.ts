import { Effect } from "effect"
import { notFound, ok } from "../SandboxAnswer.js"
import type { Query } from "../SandboxPaging.js"
import type { SandboxResources } from "../SandboxResources.js"

/** Events: what happened to the resources, listed and read. */
export const events = ({ filtersOf, listed, store }: SandboxResources) => {
  const listEvents = (query: Query) =>
    listed("events", query, (page) =>
      store.listEvents(
        filtersOf(query, {
          resource_type: ["resource_type"],
          action: ["action"],
          mandate: ["links", "mandate"],
          payment: ["links", "payment"],
          billing_request: ["links", "billing_request"]
        }),
        page
      )
    )

  const getEvent = (id: string) =>
    Effect.map(store.loadEvent(id), (event) => (event === undefined ? notFound() : ok({ events: event })))

  return { listEvents, getEvent } as const
}
