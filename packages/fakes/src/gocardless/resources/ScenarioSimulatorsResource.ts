import { Effect } from "effect"
import { invalidState, notFound, ok, sandboxId, validationFailed } from "../SandboxAnswer.js"
import { type Change, RETRIED_BY_GOCARDLESS, WILL_ATTEMPT_RETRY } from "../SandboxEvents.js"
import type { Resource } from "../SandboxStore.js"
import { asObject, liveMandate, type SandboxResources, text } from "../SandboxResources.js"

/** The way a resource goes when all is well; a scenario walks it along this to where it ends. */
const lifecycle: Record<"mandates" | "payments", ReadonlyArray<string>> = {
  mandates: ["pending_submission", "submitted", "active"],
  payments: ["pending_submission", "submitted", "confirmed", "paid_out"]
}

/** Where a resource must have been before it can end in a status (a payment is paid out before it is charged back). */
const reachedThrough: Record<string, string> = {
  active: "submitted",
  failed: "submitted",
  confirmed: "submitted",
  paid_out: "confirmed",
  charged_back: "paid_out"
}

/** The statuses a resource passes through from `from` to `to`, each an event, as GoCardless's simulators do. */
const stepsOf = (
  kind: "mandates" | "payments",
  from: string,
  to: string,
  through: string | null | undefined = reachedThrough[to]
): ReadonlyArray<string> => {
  const path = lifecycle[kind]
  if (through === null) return [to]
  const start = path.indexOf(from)
  const end = through === undefined ? -1 : path.indexOf(through)
  return [...path.slice(start + 1, end + 1), to]
}

/**
 * Scenario simulators: the statuses a resource may be in, the one it moves to (through the
 * statuses before it, unless `through` says otherwise), the event's action when it is not the
 * status, its details, and where GoCardless moves it back at once (a failure it will retry).
 */
const scenarios: Record<
  string,
  {
    readonly kind: "mandates" | "payments"
    readonly from: ReadonlyArray<string>
    readonly to: string
    readonly through?: string | null
    readonly action?: string
    readonly details?: Change["details"]
    readonly back?: { readonly status: string; readonly action: string }
  }
> = {
  mandate_activated: { kind: "mandates", from: ["pending_submission", "submitted"], to: "active" },
  mandate_reinstated: {
    kind: "mandates",
    from: ["cancelled", "expired"],
    to: "active",
    through: null,
    action: "reinstated"
  },
  payment_failed_will_retry: {
    kind: "payments",
    from: ["pending_submission", "submitted"],
    to: "failed",
    details: WILL_ATTEMPT_RETRY,
    back: { status: "pending_submission", action: "resubmission_requested" }
  },
  payment_late_failure_settled: {
    kind: "payments",
    from: ["pending_submission", "submitted", "confirmed", "paid_out"],
    to: "failed",
    through: "paid_out",
    action: "late_failure_settled"
  },
  mandate_failed: { kind: "mandates", from: ["pending_submission", "submitted"], to: "failed" },
  mandate_expired: { kind: "mandates", from: ["pending_submission", "submitted", "active"], to: "expired" },
  payment_confirmed: { kind: "payments", from: ["pending_submission", "submitted"], to: "confirmed" },
  payment_paid_out: { kind: "payments", from: ["pending_submission", "submitted", "confirmed"], to: "paid_out" },
  payment_failed: { kind: "payments", from: ["pending_submission", "submitted"], to: "failed" },
  payment_charged_back: {
    kind: "payments",
    from: ["pending_submission", "submitted", "confirmed", "paid_out"],
    to: "charged_back"
  }
}

/** Scenario simulators: a resource moved as GoCardless's simulators move it, with its events. */
export const scenarioSimulators = ({ clock, find, moved, record, store }: SandboxResources) => {
  /** A new mandate on the same bank account; the old one cancelled, pointing at it (`links.new_mandate`). */
  const replaceMandate = (mandateId: string) =>
    find("mandates", mandateId, (old) =>
      Effect.gen(function* () {
        if (!liveMandate.includes(String(old["status"]))) {
          return invalidState(
            "invalid_resource_state",
            `The mandate_replaced scenario cannot run on a mandate that is ${String(old["status"])}`
          )
        }
        const now = yield* clock.now
        const id = sandboxId("MD")
        const replacement: Resource = {
          ...old,
          id,
          created_at: now.toISOString(),
          reference: `CISBOOK-${id.slice(2, 8)}`,
          links: { ...asObject(old["links"]) }
        }
        yield* store.insert("mandates", replacement, now)
        const replaced: Resource = {
          ...old,
          status: "cancelled",
          links: { ...asObject(old["links"]), new_mandate: id }
        }
        yield* store.save(replaced)
        yield* record([
          { resourceType: "mandates", resource: replacement, action: "created" },
          { resourceType: "mandates", resource: replaced, action: "replaced", links: { new_mandate: id } }
        ])
        return ok({ scenario_simulators: { id: "mandate_replaced" } })
      })
    )

  const runScenario = (type: string, body: unknown) => {
    const scenario = scenarios[type]
    const resourceId = text(asObject(asObject(asObject(body)["data"])["links"])["resource"])
    if (scenario === undefined && type !== "mandate_replaced") return Effect.succeed(notFound())
    if (resourceId === undefined) {
      return Effect.succeed(validationFailed([{ field: "links.resource", message: "is required" }], "/data"))
    }
    if (scenario === undefined) return replaceMandate(resourceId)
    return find(scenario.kind, resourceId, (resource) =>
      Effect.gen(function* () {
        if (!scenario.from.includes(String(resource["status"]))) {
          return invalidState(
            "invalid_resource_state",
            `The ${type} scenario cannot run on a resource that is ${String(resource["status"])}`
          )
        }
        // GoCardless retries a failure itself (Success+) only for a payment created with retry_if_possible.
        if (scenario.back !== undefined && resource["retry_if_possible"] !== true) {
          return invalidState(
            "invalid_resource_state",
            `The ${type} scenario needs a payment created with retry_if_possible (Success+); this one was not`
          )
        }
        let current = resource
        const changes: Array<Change> = []
        for (const status of stepsOf(scenario.kind, String(resource["status"]), scenario.to, scenario.through)) {
          const last = status === scenario.to
          changes.push(
            yield* moved(
              scenario.kind,
              current,
              status,
              last ? scenario.details : undefined,
              last ? (scenario.action ?? status) : status
            )
          )
          current = { ...current, status }
        }
        if (scenario.back !== undefined) {
          changes.push(
            yield* moved(scenario.kind, current, scenario.back.status, RETRIED_BY_GOCARDLESS, scenario.back.action)
          )
        }
        yield* record(changes)
        return ok({ scenario_simulators: { id: type } })
      })
    )
  }

  return { runScenario } as const
}
