import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { HttpClient, HttpServer } from "@effect/platform"
import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, ownerOfNewTenant, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

const unset = { employerReference: null, accountsOfficeReference: null, registeredFrom: null }
const aDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)

/** A PUT of any JSON body, as a client in another language would send it. */
const putRaw = (key: string, tenant: string, body: unknown) =>
  raw(key, "PUT", `/tenants/${tenant}/settings/cis-scheme`, body)

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("the CIS scheme registration over HTTP", (it) => {
  it.effect("is null until set; a PUT answers and stores the references upper case without spaces", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* ownerOfNewTenant("schemeowner")
      const path = { tenant }
      expect({ ...(yield* api.settings.getCisScheme({ path })) }).toEqual(unset)
      const saved = yield* api.settings.updateCisScheme({
        path,
        payload: { employerReference: " 123 / ab45678 ", accountsOfficeReference: "123pw 1234 5678" }
      })
      // Set without registeredFrom, the registration began the day it was first set here.
      const expected = {
        employerReference: "123/AB45678",
        accountsOfficeReference: "123PW12345678",
        registeredFrom: aDate
      }
      expect({ ...saved }).toEqual(expected)
      expect({ ...(yield* api.settings.getCisScheme({ path })) }).toEqual({ ...saved })
      const replaced = yield* api.settings.updateCisScheme({
        path,
        payload: { employerReference: "450/Z9", accountsOfficeReference: "450PE00923437" }
      })
      expect(replaced.registeredFrom).toBe(saved.registeredFrom)
      expect({ ...(yield* api.settings.getCisScheme({ path })) }).toEqual({ ...replaced })
      const dated = yield* api.settings.updateCisScheme({
        path,
        payload: { employerReference: "450/Z9", accountsOfficeReference: "450PE00923437", registeredFrom: "2024-04-06" }
      })
      expect(dated.registeredFrom).toBe("2024-04-06")
      const kept = yield* api.settings.updateCisScheme({
        path,
        payload: { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }
      })
      expect({ ...kept }).toEqual({ ...expected, registeredFrom: "2024-04-06" })
      // The CIS details are a setting of their own: untouched.
      expect((yield* api.settings.getCisDetails({ path })).type).toBeNull()
    })
  )

  it.effect("may be set by a Member as well as an Owner, through the Promise facade too", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* ownerOfNewTenant("schemeowner")
      const member = yield* signUp("schememember")
      yield* api.tenants.addMember({ path: { tenant }, payload: { email: member.user.email, role: "Member" } })
      const server = yield* HttpServer.HttpServer
      assert(server.address._tag === "TcpAddress")
      const baseUrl = `http://127.0.0.1:${server.address.port}`
      const client = yield* Effect.promise(() =>
        createPromiseClient({
          baseUrl,
          credentials: { apiKey: member.key }
        })
      )
      const payload = { employerReference: "846/X1", accountsOfficeReference: "846PS00928342" }
      const saved = yield* Effect.promise(() => client.settings.updateCisScheme({ path: { tenant }, payload }))
      expect({ ...saved }).toEqual({ ...payload, registeredFrom: aDate })
      expect({ ...(yield* api.settings.getCisScheme({ path: { tenant } })) }).toEqual({ ...saved })
    })
  )

  it.effect("refuses anything else with 400 naming each member, and changes nothing", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* ownerOfNewTenant("schemeowner")
      const path = { tenant }
      const kept = yield* api.settings.updateCisScheme({
        path,
        payload: { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }
      })
      const badLetter = yield* Effect.flip(
        api.settings.updateCisScheme({
          path,
          payload: { employerReference: "1234/AB", accountsOfficeReference: "123PA12345678" }
        })
      )
      assert(badLetter._tag === "ValidationFailed")
      expect(Object.keys(badLetter.errors).sort()).toEqual(["accountsOfficeReference", "employerReference"])
      expect(badLetter.errors.accountsOfficeReference?.[0]).toContain("check letter")
      expect(badLetter.errors.employerReference?.[0]).toContain("for example 123/AB45678")

      const answer = yield* putRaw(key, tenant, {
        employerReference: "123/AB45678",
        accountsOfficeReference: "123PW1234"
      })
      expect(answer.status).toBe(400)
      expect(answer.contentType).toMatch(/^application\/problem\+json/)
      expect(Object.keys(answer.body?.errors ?? {})).toEqual(["accountsOfficeReference"])

      const missing = yield* putRaw(key, tenant, { employerReference: "123/AB45678" })
      expect(missing.status).toBe(400)
      expect(missing.body?.errors).toEqual({ accountsOfficeReference: ["Required"] })
      const wrongType = yield* putRaw(key, tenant, { employerReference: 123, accountsOfficeReference: null })
      expect(wrongType.status).toBe(400)
      expect(Object.keys(wrongType.body?.errors ?? {}).sort()).toEqual(["accountsOfficeReference", "employerReference"])
      const notADate = yield* putRaw(key, tenant, { ...kept, registeredFrom: "2026-02-30" })
      expect([notADate.status, Object.keys(notADate.body?.errors ?? {})]).toEqual([400, ["registeredFrom"]])
      expect({ ...(yield* api.settings.getCisScheme({ path })) }).toEqual({ ...kept })
    })
  )

  it.effect("is 403 for a non-member and 404 for an unknown tenant", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* ownerOfNewTenant("schemeowner")
      const stranger = yield* signUp("schemestranger")
      const path = { tenant }
      const payload = { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }
      expect((yield* Effect.flip(stranger.api.settings.getCisScheme({ path })))._tag).toBe("Forbidden")
      expect((yield* Effect.flip(stranger.api.settings.updateCisScheme({ path, payload })))._tag).toBe("Forbidden")
      const answer = yield* putRaw(stranger.key, tenant, payload)
      expect([answer.status, answer.contentType.split(";")[0]]).toEqual([403, "application/problem+json"])
      expect({ ...(yield* api.settings.getCisScheme({ path })) }).toEqual(unset)
      const unknown = { tenant: uniqueTenantCode("nowhere") }
      expect((yield* Effect.flip(api.settings.getCisScheme({ path: unknown })))._tag).toBe("NotFound")
      expect((yield* Effect.flip(api.settings.updateCisScheme({ path: unknown, payload })))._tag).toBe("NotFound")
    })
  )

  it.effect("is documented in the OpenAPI document, with examples", () =>
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const doc = (yield* Effect.flatMap(http.get("/openapi.json"), (r) => r.json)) as Record<string, any>
      const operations = doc.paths["/tenants/{tenant}/settings/cis-scheme"]
      expect(Object.keys(operations).sort()).toEqual(["get", "put"])
      expect(Object.keys(operations.put.responses).sort()).toEqual([
        "200",
        "400",
        "401",
        "403",
        "404",
        "413",
        "415",
        "429",
        "503"
      ])
      expect(operations.put.summary).toBe("Set the tenant's CIS scheme registration")
      expect(operations.get.description).toContain("accountsOfficeReference")
      const request = operations.put.requestBody.content["application/json"].schema
      expect(request.required.sort()).toEqual(["accountsOfficeReference", "employerReference"])
      expect(request.properties.accountsOfficeReference.examples).toContain("123PW12345678")
      expect(doc.components.schemas.CisSchemeDto.properties.employerReference).toBeDefined()
    })
  )
})
