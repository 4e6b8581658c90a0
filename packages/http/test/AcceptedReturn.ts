import { ReturnFiling } from "@cisbook/core/returns/ReturnFiling"
import { expect } from "@effect/vitest"
import { Duration, Effect } from "effect"
import type { contractorTenant } from "./ContractorTenant.js"
import { eventually } from "./WorkerTestApp.js"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"

/** The June return of the tenant, filed through the API and answered by the sandbox tax authority. */
export const acceptedJuneReturn = (owner: Effect.Effect.Success<ReturnType<typeof contractorTenant>>) =>
  Effect.gen(function* () {
    const filed = yield* owner.api.monthlyReturns.createMonthlyReturn({
      path: { tenant: owner.tenant },
      payload: {
        declarations: allDeclared,
        periodEnd: "2026-06-05",
        lines: [
          { contact: "JOHNSMIT", grossAmount: 100000, materials: 40000, deducted: 12000 },
          { contact: "ACMEROOF", grossAmount: 50050, materials: 50, deducted: 15000 }
        ]
      }
    })
    const fileDue = Effect.flatMap(ReturnFiling, (filing) => filing.fileDue(100, Duration.minutes(1))).pipe(
      Effect.provide(ReturnFiling.Default)
    )
    // Filed over GovTalk: acknowledged, then answered at a poll after the engine's PollInterval.
    const answered = yield* eventually(
      Effect.zipRight(
        fileDue,
        owner.api.monthlyReturns.getMonthlyReturn({ path: { tenant: owner.tenant, id: filed.id } })
      ),
      (r) => r.status !== "Submitted"
    )
    expect(answered.status).toBe("Accepted")
    return filed.id
  })
