import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { HttpServer } from "@effect/platform"
import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { contractorTenant as contractor } from "./ContractorTenant.js"
import { e2e, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"

const june = {
  periodEnd: "2026-06-05",
  declarations: allDeclared,
  lines: [
    { contact: "johnsmit", grossAmount: 1000, materials: 400, deducted: 120 },
    { contact: "ACMEROOF", grossAmount: 500.5, materials: 0.5, deducted: 150 }
  ]
}

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("monthly returns over HTTP", (it) => {
  it.effect("answers 201 with the MonthlyReturnDto in pounds, Submitted, and gets and lists it", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* contractor("mrcreate")
      const res = yield* raw(key, "POST", `/tenants/${tenant}/monthly-returns`, june)
      expect(res.status).toBe(201)
      expect(res.body).toEqual({
        id: expect.any(String),
        periodEnd: "2026-06-05",
        status: "Submitted",
        submittedAt: expect.stringMatching(/Z$/),
        acceptedAt: null,
        rejectionReason: null,
        heldReason: null,
        invoiced: false,
        nilReturn: false,
        inactive: false,
        hmrcReceipt: null,
        declarations: {
          employmentStatus: true,
          subcontractorsVerified: true,
          informationCorrect: true,
          declaredBy: expect.any(String),
          declaredAt: res.body?.submittedAt
        },
        gatewayTest: false,
        totals: { grossAmount: 1500.5, materials: 400.5, deducted: 270 },
        lines: [
          {
            contact: "JOHNSMIT",
            name: "John Smith Groundworks",
            utr: "2234567890",
            verificationNumber: "V1234567890",
            taxTreatment: "Net",
            grossAmount: 1000,
            materials: 400,
            deducted: 120,
            payments: []
          },
          {
            contact: "ACMEROOF",
            name: "Acme Roofing Ltd",
            utr: "6456789012",
            verificationNumber: "V9876543210/A",
            taxTreatment: "Unmatched",
            grossAmount: 500.5,
            materials: 0.5,
            deducted: 150,
            payments: []
          }
        ]
      })
      const id = String(res.body?.id)
      const viaSdk = yield* api.monthlyReturns.getMonthlyReturn({ path: { tenant, id } })
      expect(viaSdk.totals).toEqual({ grossAmount: 150050, materials: 40050, deducted: 27000 })
      expect(yield* raw(key, "GET", `/tenants/${tenant}/monthly-returns/${id}`)).toMatchObject({
        status: 200,
        body: res.body
      })
      yield* api.monthlyReturns.createMonthlyReturn({
        path: { tenant },
        payload: {
          declarations: allDeclared,
          periodEnd: "2026-05-05",
          lines: [{ contact: "JOHNSMIT", grossAmount: 100, materials: 0, deducted: 0 }]
        }
      })
      const all = yield* api.monthlyReturns.listMonthlyReturns({ path: { tenant } })
      expect(all.map((r) => r.periodEnd)).toEqual(["2026-06-05", "2026-05-05"])
    })
  )

  it.effect("refuses bad returns with 400 naming each member, a second live return with 409, and changes nothing", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* contractor("mrrules")
      const url = `/tenants/${tenant}/monthly-returns`
      const bad = yield* raw(key, "POST", url, {
        declarations: allDeclared,
        periodEnd: "2026-06-06",
        lines: [
          { contact: "BLOGGSSO", grossAmount: 100, materials: 0, deducted: 0 },
          { contact: "JOHNSMIT", grossAmount: 100, materials: 200, deducted: 0.001 }
        ]
      })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body?.errors).sort()).toEqual(["lines[1].deducted", "periodEnd"])
      const rules = yield* raw(key, "POST", url, {
        declarations: allDeclared,
        periodEnd: "2026-06-05",
        lines: [
          { contact: "BLOGGSSO", grossAmount: 100, materials: 0, deducted: 0 },
          { contact: "JOHNSMIT", grossAmount: 100, materials: 200, deducted: 0 },
          { contact: "ACMEROOF", grossAmount: 100, materials: 0, deducted: 30.01 },
          { contact: "NOBODY", grossAmount: 1, materials: 0, deducted: 0 }
        ]
      })
      expect(rules).toMatchObject({
        status: 400,
        body: {
          errors: {
            "lines[0].contact": [expect.stringContaining("not verified")],
            "lines[1].materials": ["Materials cannot be more than grossAmount"],
            "lines[2].deducted": ["At most 30.00 can be deducted: 30 % (Unmatched) of grossAmount less materials"],
            "lines[3].contact": [expect.stringContaining("not a CIS subcontractor")]
          }
        }
      })
      const empty = yield* raw(key, "POST", url, { declarations: allDeclared, periodEnd: "2026-06-05", lines: [] })
      expect(Object.keys(empty.body?.errors)).toEqual(["lines"])
      const future = yield* raw(key, "POST", url, { ...june, periodEnd: "2099-06-05" })
      expect(future.body?.errors?.periodEnd).toEqual([expect.stringContaining("has not started yet")])
      expect(yield* api.monthlyReturns.listMonthlyReturns({ path: { tenant } })).toEqual([])

      yield* api.monthlyReturns.createMonthlyReturn({ path: { tenant }, payload: toPence(june) })
      const again = yield* Effect.flip(
        api.monthlyReturns.createMonthlyReturn({ path: { tenant }, payload: toPence(june) })
      )
      assert(again._tag === "Conflict")
      expect(again.detail).toContain("2026-06-05")
    })
  )

  it.effect("needs the tenant's own CIS details, and keeps each tenant's returns to itself", () =>
    Effect.gen(function* () {
      const a = yield* contractor("mrisoa")
      const b = yield* signUp("mrisob")
      const tenantB = uniqueTenantCode("mrisob")
      yield* b.api.tenants.createTenant({ payload: { code: tenantB, name: "No Details Ltd" } })
      const incomplete = yield* raw(b.key, "POST", `/tenants/${tenantB}/monthly-returns`, june)
      expect(incomplete).toMatchObject({
        status: 400,
        body: { detail: expect.stringContaining(`CIS details first. (PUT /tenants/${tenantB}/settings/cis-details)`) }
      })
      const filed = yield* a.api.monthlyReturns.createMonthlyReturn({
        path: { tenant: a.tenant },
        payload: toPence(june)
      })
      expect((yield* raw(b.key, "GET", `/tenants/${a.tenant}/monthly-returns`)).status).toBe(403)
      expect((yield* raw(b.key, "GET", `/tenants/${tenantB}/monthly-returns/${filed.id}`)).status).toBe(404)
      expect((yield* raw(a.key, "GET", `/tenants/${a.tenant}/monthly-returns/nope`)).status).toBe(404)
      expect((yield* raw(undefined, "GET", `/tenants/${a.tenant}/monthly-returns`)).status).toBe(401)
    })
  )

  it.effect("files, lists and gets returns through the Promise client, which rejects with the typed error", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* contractor("mrpromise")
      const server = yield* HttpServer.HttpServer
      assert(server.address._tag === "TcpAddress")
      const baseUrl = `http://127.0.0.1:${server.address.port}`
      const cisbook = yield* Effect.promise(() => createPromiseClient({ baseUrl, credentials: { apiKey: key } }))
      const filed = yield* Effect.promise(() =>
        cisbook.monthlyReturns.createMonthlyReturn({ path: { tenant }, payload: toPence(june) })
      )
      expect(filed).toMatchObject({ periodEnd: "2026-06-05", status: "Submitted" })
      const listed = yield* Effect.promise(() => cisbook.monthlyReturns.listMonthlyReturns({ path: { tenant } }))
      expect(listed.map((r) => r.id)).toEqual([filed.id])
      const got = yield* Effect.promise(() =>
        cisbook.monthlyReturns.getMonthlyReturn({ path: { tenant, id: filed.id } })
      )
      expect(got.lines.map((l) => l.contact)).toEqual(["JOHNSMIT", "ACMEROOF"])
      const refused = yield* Effect.promise(() =>
        cisbook.monthlyReturns
          .createMonthlyReturn({
            path: { tenant },
            payload: {
              declarations: allDeclared,
              periodEnd: "2026-07-05",
              lines: [{ contact: "BLOGGSSO", grossAmount: 100, materials: 0, deducted: 0 }]
            }
          })
          .then(
            () => undefined,
            (error: unknown) => error
          )
      )
      // BLOGGSSO is not verified.
      expect(refused).toMatchObject({ _tag: "ValidationFailed", errors: { "lines[0].contact": [expect.any(String)] } })
    })
  )
})

/** The SDK speaks pence. */
const toPence = (body: typeof june) => ({
  periodEnd: body.periodEnd,
  declarations: body.declarations,
  lines: body.lines.map((l) => ({
    contact: l.contact,
    grossAmount: Math.round(l.grossAmount * 100),
    materials: Math.round(l.materials * 100),
    deducted: Math.round(l.deducted * 100)
  }))
})
