import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { ReturnFiling } from "@cisbook/core/returns/ReturnFiling"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { registerCisScheme } from "./CisSchemeSetting.js"
import { eventually } from "./WorkerTestApp.js"
import { e2e, ownerOfNewTenant, raw, SqlTestPorts } from "./E2E.js"
import { nilDeclared } from "@cisbook/testkit/DeclarationsFixtures"

/** A contractor tenant with its own CIS details but no scheme registration yet. */
const contractorWithoutScheme = (name: string) =>
  Effect.gen(function* () {
    const owner = yield* ownerOfNewTenant(name)
    yield* owner.api.settings.updateCisDetails({
      path: { tenant: owner.tenant },
      payload: { type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" }
    })
    return owner
  })

const fileDue = Effect.flatMap(ReturnFiling, (filing) => filing.fileDue(100, Duration.minutes(1))).pipe(
  Effect.provide(ReturnFiling.Default)
)

layer(e2e(SqlTestPorts), { excludeTestServices: true, timeout: "120 seconds" })("nil returns over HTTP", (it) => {
  it.effect("a return is refused with 400 naming the scheme's references until the CIS scheme is registered", () =>
    Effect.gen(function* () {
      const owner = yield* contractorWithoutScheme("nilnoscheme")
      const { key, tenant } = owner
      const refused = yield* raw(key, "POST", `/tenants/${tenant}/monthly-returns`, {
        declarations: nilDeclared,
        periodEnd: "2026-06-05",
        nilReturn: true
      })
      expect(refused.status).toBe(400)
      expect(refused.contentType).toMatch(/^application\/problem\+json/)
      expect(Object.keys(refused.body?.errors ?? {})).toEqual(["employerReference", "accountsOfficeReference"])
      expect(yield* owner.api.monthlyReturns.listMonthlyReturns({ path: { tenant } })).toEqual([])
      yield* registerCisScheme(owner, tenant)
      const filed = yield* raw(key, "POST", `/tenants/${tenant}/monthly-returns`, {
        declarations: nilDeclared,
        periodEnd: "2026-06-05",
        nilReturn: true
      })
      expect(filed.status).toBe(201)
    })
  )

  it.effect(
    "refuses a nil return with lines, a return with no lines, and inactive without nilReturn, naming each",
    () =>
      Effect.gen(function* () {
        const owner = yield* contractorWithoutScheme("nilrules")
        const { key, tenant } = owner
        yield* registerCisScheme(owner, tenant)
        const line = { contact: "NOBODY", grossAmount: 100, materials: 0, deducted: 20 }
        const post = (body: unknown) => raw(key, "POST", `/tenants/${tenant}/monthly-returns`, body)
        const withLines = yield* post({ periodEnd: "2026-06-05", nilReturn: true, lines: [line] })
        expect([withLines.status, Object.keys(withLines.body?.errors ?? {})]).toEqual([400, ["lines"]])
        const none = yield* post({ periodEnd: "2026-06-05", lines: [] })
        expect([none.status, Object.keys(none.body?.errors ?? {})]).toEqual([400, ["lines"]])
        expect(none.body?.errors.lines[0]).toContain("nil return")
        const inactive = yield* post({ periodEnd: "2026-06-05", inactive: true, lines: [line] })
        expect(Object.keys(inactive.body?.errors ?? {})).toContain("inactive")
        const notFlag = yield* post({ periodEnd: "2026-06-05", nilReturn: "yes" })
        expect([notFlag.status, Object.keys(notFlag.body?.errors ?? {})]).toEqual([400, ["nilReturn"]])
        expect(yield* owner.api.monthlyReturns.listMonthlyReturns({ path: { tenant } })).toEqual([])
      })
  )

  it.effect("a nil return is filed, accepted, listed in usage with no subcontractors, and billed as a line of 0", () =>
    Effect.gen(function* () {
      const owner = yield* contractorWithoutScheme("nilbilled")
      const { api, key, tenant } = owner
      yield* registerCisScheme(owner, tenant)
      const res = yield* raw(key, "POST", `/tenants/${tenant}/monthly-returns`, {
        declarations: nilDeclared,
        periodEnd: "2026-06-05",
        nilReturn: true,
        inactive: true,
        lines: []
      })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        periodEnd: "2026-06-05",
        status: "Submitted",
        nilReturn: true,
        inactive: true,
        totals: { grossAmount: 0, materials: 0, deducted: 0 },
        lines: []
      })
      const id = String(res.body?.id)
      // Filed over GovTalk: acknowledged, then answered at a poll after the engine's PollInterval.
      const accepted = yield* eventually(
        Effect.zipRight(fileDue, api.monthlyReturns.getMonthlyReturn({ path: { tenant, id } })),
        (r) => r.status !== "Submitted"
      )
      expect(accepted).toMatchObject({ status: "Accepted", nilReturn: true, inactive: true, lines: [] })

      const usage = yield* raw(key, "GET", "/me/billing/usage")
      expect(usage.body).toEqual([
        {
          returnId: id,
          tenant,
          tenantName: `nilbilled Ltd`,
          periodEnd: "2026-06-05",
          acceptedAt: expect.stringMatching(/Z$/),
          subcontractors: []
        }
      ])
      yield* Effect.flatMap(BillingRun, (run) => run.run("2026-07-01"))
      expect(yield* api.billing.getBillingUsage()).toEqual([])
      const [invoice] = yield* api.billing.listBillingInvoices()
      assert(invoice !== undefined)
      // Nothing to collect: the invoice of a nil return alone is settled without a payment.
      expect(invoice).toMatchObject({ subtotal: 0, vat: 0, total: 0, paymentStatus: "Paid", paymentReference: null })
      const detail = yield* api.billing.getBillingInvoice({ path: { invoice: invoice.id } })
      expect(detail.lines).toEqual([
        {
          description: "CIS return, tax month ending 5 June 2026 (nilbilled Ltd)",
          tenant,
          returnId: id,
          quantity: 0,
          unitPrice: 100,
          amount: 0
        }
      ])
      expect((yield* api.monthlyReturns.getMonthlyReturn({ path: { tenant, id } })).invoiced).toBe(true)
    })
  )
})
