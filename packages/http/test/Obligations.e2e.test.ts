import { ukCalendarDate } from "@cisbook/core/CalendarDate"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { asUser } from "@cisbook/core/users/ActingAs"
import { lateFilingPenalty } from "@cisbook/core/returns/LateFilingPenalty"
import { returnDueDate, taxMonthEndOf, taxMonthsAfter, taxMonthStart } from "@cisbook/core/returns/TaxMonth"
import { allDeclared, nilDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { HttpClient } from "@effect/platform"
import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { contractorTenant as contractor } from "./ContractorTenant.js"
import { e2e, raw, SqlTestPorts } from "./E2E.js"

const line = { contact: "JOHNSMIT", grossAmount: 1000, materials: 400, deducted: 120 }

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("declarations and obligations over HTTP", (it) => {
  it.effect(
    "a return is refused without the contractor's declarations, naming each; filed, it records them with the API key that made them",
    () =>
      Effect.gen(function* () {
        const { api, key, tenant, user } = yield* contractor("declares")
        const url = `/tenants/${tenant}/monthly-returns`
        const current = taxMonthEndOf(ukCalendarDate(new Date()))
        const undeclared = yield* raw(key, "POST", url, { periodEnd: current, lines: [line] })
        expect(undeclared.status).toBe(400)
        expect(undeclared.contentType).toMatch(/^application\/problem\+json/)
        expect(Object.keys(undeclared.body?.errors ?? {})).toEqual([
          "declarations.employmentStatus",
          "declarations.subcontractorsVerified",
          "declarations.informationCorrect"
        ])
        const notTrue = yield* raw(key, "POST", url, {
          periodEnd: current,
          lines: [line],
          declarations: { ...allDeclared, employmentStatus: false }
        })
        expect(Object.keys(notTrue.body?.errors ?? {})).toEqual(["declarations.employmentStatus"])
        const notABoolean = yield* raw(key, "POST", url, {
          periodEnd: current,
          lines: [line],
          declarations: { ...allDeclared, informationCorrect: "yes" }
        })
        expect([notABoolean.status, Object.keys(notABoolean.body?.errors ?? {})]).toEqual([
          400,
          ["declarations.informationCorrect"]
        ])
        const nilUndeclared = yield* raw(key, "POST", url, { periodEnd: current, nilReturn: true })
        expect(Object.keys(nilUndeclared.body?.errors ?? {})).toEqual(["declarations.informationCorrect"])
        expect(yield* api.monthlyReturns.listMonthlyReturns({ path: { tenant } })).toEqual([])

        const before = Date.now()
        const filed = yield* raw(key, "POST", url, { periodEnd: current, lines: [line], declarations: allDeclared })
        expect(filed.status).toBe(201)
        const keys = yield* (yield* ApiKeys).list().pipe(asUser(user))
        expect(filed.body?.declarations).toMatchObject({ ...allDeclared, declaredBy: keys[0]!.id })
        expect(Date.parse(filed.body?.declarations.declaredAt)).toBeGreaterThanOrEqual(before - 1000)
        const got = yield* api.monthlyReturns.getMonthlyReturn({ path: { tenant, id: filed.body?.id } })
        expect(got.declarations.declaredBy).toBe(keys[0]!.id)

        const nil = yield* api.monthlyReturns.createMonthlyReturn({
          path: { tenant },
          payload: { periodEnd: taxMonthsAfter(current, -1), nilReturn: true, declarations: nilDeclared }
        })
        expect(nil.declarations).toMatchObject({
          employmentStatus: false,
          subcontractorsVerified: false,
          informationCorrect: true
        })
      })
  )

  it.effect(
    "each tax month since the registration began: filed, overdue with its penalty, or due, through the SDK; bad bounds are 400",
    () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* contractor("obliged")
        const today = ukCalendarDate(new Date())
        const current = taxMonthEndOf(today)
        const twoBefore = taxMonthsAfter(current, -2)
        yield* api.settings.updateCisScheme({
          path: { tenant },
          payload: {
            employerReference: "123/AB45678",
            accountsOfficeReference: "123PW12345678",
            registeredFrom: taxMonthStart(twoBefore)
          }
        })
        const filed = yield* api.monthlyReturns.createMonthlyReturn({
          path: { tenant },
          payload: {
            periodEnd: current,
            lines: [{ ...line, grossAmount: 100000, materials: 40000, deducted: 12000 }],
            declarations: allDeclared
          }
        })
        const all = yield* api.monthlyReturns.listObligations({ path: { tenant }, urlParams: {} })
        const filedOn = new Date().toISOString().slice(0, 10)
        expect(all.map((o) => o.periodEnd)).toEqual([twoBefore, taxMonthsAfter(current, -1), current])
        expect(all[0]).toEqual({
          periodEnd: twoBefore,
          dueDate: returnDueDate(twoBefore),
          status: "Overdue",
          monthlyReturn: null,
          filedOn: null,
          penalty: lateFilingPenalty(returnDueDate(twoBefore), today, 0)
        })
        expect(all[2]).toMatchObject({ status: "Filed", monthlyReturn: filed.id, filedOn, penalty: 0 })
        const one = yield* api.monthlyReturns.listObligations({
          path: { tenant },
          urlParams: { from: current, to: current }
        })
        expect(one.map((o) => o.periodEnd)).toEqual([current])

        const url = `/tenants/${tenant}/monthly-returns/obligations`
        const json = yield* raw(key, "GET", `${url}?from=${twoBefore}`)
        expect(json.status).toBe(200)
        // Pounds on the wire.
        expect(json.body?.[0].penalty).toBe(lateFilingPenalty(returnDueDate(twoBefore), today, 0) / 100)
        const notADate = yield* raw(key, "GET", `${url}?from=2026-13-05`)
        expect([notADate.status, Object.keys(notADate.body?.errors ?? {})]).toEqual([400, ["from"]])
        const backwards = yield* raw(key, "GET", `${url}?from=2026-06-05&to=2026-05-05`)
        expect([backwards.status, Object.keys(backwards.body?.errors ?? {})]).toEqual([400, ["from"]])
        expect((yield* raw(undefined, "GET", url)).status).toBe(401)
      })
  )

  it.effect("is documented in the OpenAPI document, with an example, apart from a return's id", () =>
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const doc = (yield* Effect.flatMap(http.get("/openapi.json"), (r) => r.json)) as Record<string, any>
      const operation = doc.paths["/tenants/{tenant}/monthly-returns/obligations"]?.get
      assert(operation !== undefined)
      expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(["tenant", "from", "to"])
      )
      // Examples are written in pounds, as the wire speaks.
      expect(doc.components.schemas.ObligationDto.examples).toEqual([expect.objectContaining({ penalty: 100 })])
      expect(doc.components.schemas.MonthlyReturnDto.properties.declarations).toBeDefined()
    })
  )
})
