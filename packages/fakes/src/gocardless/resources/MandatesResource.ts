import { Effect } from "effect"
import { invalidState } from "../SandboxAnswer.js"
import { CANCELLED_WITH_MANDATE } from "../SandboxEvents.js"
import type { Query } from "../SandboxPaging.js"
import { cancellablePayment, liveMandate, type SandboxResources } from "../SandboxResources.js"

/** Mandates: read, listed and cancelled (with their payments not yet submitted). */
export const mandates = ({ filtersOf, find, get, listed, moved, record, shown, shownAll, store }: SandboxResources) => {
  const listMandates = (query: Query) =>
    listed("mandates", query, (page) =>
      store
        .list(
          "mandates",
          filtersOf(query, { customer: ["links", "customer"], mandate: ["id"], status: ["status"] }),
          page
        )
        .pipe(Effect.map(shownAll))
    )

  const cancelMandate = (id: string) =>
    find("mandates", id, (mandate) =>
      Effect.gen(function* () {
        // GoCardless's one reason for a mandate that can no longer be cancelled, already cancelled included.
        if (!liveMandate.includes(String(mandate["status"]))) {
          return invalidState(
            "cancellation_failed",
            `A mandate that is ${String(mandate["status"])} cannot be cancelled`
          )
        }
        const changes = [yield* moved("mandates", mandate, "cancelled")]
        // As at GoCardless: the mandate's payments not yet submitted are cancelled with it.
        for (const payment of yield* store.paymentsOfMandate(id)) {
          if (cancellablePayment.includes(String(payment["status"]))) {
            changes.push(yield* moved("payments", payment, "cancelled", CANCELLED_WITH_MANDATE))
          }
        }
        yield* record(changes)
        return shown("mandates", { ...mandate, status: "cancelled" })
      })
    )

  return { getMandate: get("mandates"), listMandates, cancelMandate } as const
}
