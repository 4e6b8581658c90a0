import { Context, Effect, Layer } from "effect"
import { billingRequestFlows } from "./resources/BillingRequestFlowsResource.js"
import { billingRequests } from "./resources/BillingRequestsResource.js"
import { customers } from "./resources/CustomersResource.js"
import { events } from "./resources/EventsResource.js"
import { mandates } from "./resources/MandatesResource.js"
import { payments } from "./resources/PaymentsResource.js"
import { scenarioSimulators } from "./resources/ScenarioSimulatorsResource.js"
import { makeSandboxResources } from "./SandboxResources.js"

/**
 * A GoCardless-compatible sandbox: the subset of GoCardless's API the service uses, with its
 * envelopes, statuses, idempotency keys, lists, events and error bodies, kept in the service's
 * database. Mandates are set up by billing requests and their flows (GoCardless's redirect flows
 * are not served); a flow whose prefilled email's local part begins with `refuse` is refused (422). Every change of a mandate or payment records its events, and the notification that will
 * tell of them, in the change's transaction.
 */
export class GoCardlessSandbox extends Context.Tag("fakes/GoCardlessSandbox")<
  GoCardlessSandbox,
  Effect.Effect.Success<typeof makeSandbox>
>() {}

const makeSandbox = Effect.map(makeSandboxResources, (resources) => ({
  ...billingRequests(resources),
  ...billingRequestFlows(resources),
  ...mandates(resources),
  ...customers(resources),
  ...payments(resources),
  ...events(resources),
  ...scenarioSimulators(resources)
}))

/** The sandbox over the service's database. */
export const GoCardlessSandboxSql = Layer.effect(GoCardlessSandbox, makeSandbox)
