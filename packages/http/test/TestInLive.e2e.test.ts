import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acceptedJuneReturn } from "./AcceptedReturn.js"
import { contractorTenant } from "./ContractorTenant.js"
import { e2e, sqlTestPorts } from "./E2E.js"

// The server over a Transaction Engine sent to as GOVTALK_TEST=true sends: GatewayTest 1.
layer(e2e(sqlTestPorts(undefined, undefined, {}, true)), { excludeTestServices: true, timeout: "120 seconds" })(
  "test in live (GOVTALK_TEST=true)",
  (it) => {
    it.effect(
      "a return HMRC answers under GatewayTest is Accepted with gatewayTest true, and never billed: HMRC filed nothing",
      () =>
        Effect.gen(function* () {
          const owner = yield* contractorTenant("testinlive")
          const id = yield* acceptedJuneReturn(owner)
          const answered = yield* owner.api.monthlyReturns.getMonthlyReturn({ path: { tenant: owner.tenant, id } })
          expect(answered).toMatchObject({ status: "Accepted", gatewayTest: true })
          expect(answered.hmrcReceipt?.irmarkVerified).toBe(true)
          const [listed] = yield* owner.api.monthlyReturns.listMonthlyReturns({ path: { tenant: owner.tenant } })
          expect(listed?.gatewayTest).toBe(true)
          expect(yield* owner.api.billing.getBillingUsage()).toEqual([])
        })
    )
  }
)
