import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { sampleScheme } from "./CisSchemeSetting.js"
import { e2e, ownerOfNewTenant, raw, signUp, SqlTestPorts } from "./E2E.js"
import { nilDeclared } from "@cisbook/testkit/DeclarationsFixtures"

const PASSWORD = "Gateway-Pa55word-never-shown"

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("a tenant's HMRC credentials over HTTP", (it) => {
  it.effect("null until set; a PUT answers them without the password, Unchecked; a DELETE removes them", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* ownerOfNewTenant("gateway")
      const path = { tenant }
      expect(yield* api.settings.getHmrcCredentials({ path })).toBeNull()
      const saved = yield* api.settings.updateHmrcCredentials({
        path,
        payload: { gatewayUserId: " 123456789012 ", password: PASSWORD }
      })
      expect({ ...saved, updatedAt: undefined }).toEqual({
        gatewayUserId: "123456789012",
        filer: "Contractor",
        status: "Unchecked",
        updatedAt: undefined
      })
      const agent = yield* raw(key, "PUT", `/tenants/${tenant}/settings/hmrc-credentials`, {
        gatewayUserId: "AGENT01",
        password: PASSWORD,
        filer: "Agent"
      })
      expect(agent.status).toBe(200)
      expect(JSON.stringify(agent.body)).not.toContain(PASSWORD)
      expect(agent.body).toMatchObject({ gatewayUserId: "AGENT01", filer: "Agent", status: "Unchecked" })
      const shown = yield* raw(key, "GET", `/tenants/${tenant}/settings/hmrc-credentials`)
      expect(JSON.stringify(shown.body)).not.toContain(PASSWORD)
      expect(Object.keys(shown.body ?? {}).sort()).toEqual(["filer", "gatewayUserId", "status", "updatedAt"])
      yield* api.settings.deleteHmrcCredentials({ path })
      expect(yield* api.settings.getHmrcCredentials({ path })).toBeNull()
    })
  )

  it.effect("refuses a blank user id or password, or another filer, with 400 naming each, changing nothing", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* ownerOfNewTenant("gateway")
      const bad = yield* raw(key, "PUT", `/tenants/${tenant}/settings/hmrc-credentials`, {
        gatewayUserId: " ",
        password: "",
        filer: "Bookkeeper"
      })
      expect(bad.status).toBe(400)
      expect(JSON.stringify(bad.body)).toContain("filer")
      const blank = yield* raw(key, "PUT", `/tenants/${tenant}/settings/hmrc-credentials`, {
        gatewayUserId: " ",
        password: ""
      })
      expect(blank.status).toBe(400)
      expect(Object.keys(blank.body?.["errors"] ?? {}).sort()).toEqual(["gatewayUserId", "password"])
      expect((yield* raw(key, "GET", `/tenants/${tenant}/settings/hmrc-credentials`)).body).toBeNull()
    })
  )

  it.effect("Owner only: 403 for a Member; 404 for an unknown tenant", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* ownerOfNewTenant("gateway")
      const member = yield* signUp("gatewaymember")
      yield* api.tenants.addMember({ path: { tenant }, payload: { email: member.user.email, role: "Member" } })
      const put = yield* raw(member.key, "PUT", `/tenants/${tenant}/settings/hmrc-credentials`, {
        gatewayUserId: "U",
        password: PASSWORD
      })
      expect(put.status).toBe(403)
      expect((yield* raw(member.key, "GET", `/tenants/${tenant}/settings/hmrc-credentials`)).status).toBe(403)
      expect((yield* raw(member.key, "DELETE", `/tenants/${tenant}/settings/hmrc-credentials`)).status).toBe(403)
      expect((yield* raw(member.key, "GET", `/tenants/no-such-tenant-x/settings/hmrc-credentials`)).status).toBe(404)
    })
  )

  it.effect("a return POST without them is 400 naming hmrcCredentials", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* ownerOfNewTenant("gateway")
      yield* api.settings.updateCisDetails({
        path: { tenant },
        payload: { type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" }
      })
      yield* api.settings.updateCisScheme({ path: { tenant }, payload: sampleScheme })
      const filed = yield* raw(key, "POST", `/tenants/${tenant}/monthly-returns`, {
        declarations: nilDeclared,
        periodEnd: "2026-06-05",
        nilReturn: true
      })
      expect(filed.status).toBe(400)
      expect(Object.keys(filed.body?.["errors"] ?? {})).toEqual(["hmrcCredentials"])
    })
  )
})
