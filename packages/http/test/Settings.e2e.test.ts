import { HttpClient } from "@effect/platform"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, ownerOfNewTenant, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

const unset = {
  type: null,
  title: null,
  firstName: null,
  secondName: null,
  lastName: null,
  tradingName: null,
  utr: null,
  niNumber: null,
  companyNumber: null,
  partnerUtr: null
}

/** A PUT of any JSON body, as a client in another language would send it. */
const putRaw = (key: string, tenant: string, body: unknown) =>
  raw(key, "PUT", `/tenants/${tenant}/settings/cis-details`, body)

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("tenant CIS details over HTTP", (it) => {
  describe("GET and PUT /tenants/{tenant}/settings/cis-details", () => {
    it.effect("are all null until set; a PUT answers and stores the normalised details", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* ownerOfNewTenant("owner")
        const path = { tenant }
        expect({ ...(yield* api.settings.getCisDetails({ path })) }).toEqual(unset)
        const saved = yield* api.settings.updateCisDetails({
          path,
          payload: {
            type: "SoleTrader",
            title: " Ms ",
            firstName: "Ada",
            secondName: "",
            lastName: "Lovelace",
            utr: "k2234567890",
            niNumber: "ab 12 34 56 c"
          }
        })
        const expected = {
          type: "SoleTrader",
          title: "Ms",
          firstName: "Ada",
          secondName: null,
          lastName: "Lovelace",
          tradingName: null,
          utr: "2234567890",
          niNumber: "AB123456C",
          companyNumber: null,
          partnerUtr: null
        }
        expect({ ...saved }).toEqual(expected)
        expect({ ...(yield* api.settings.getCisDetails({ path })) }).toEqual(expected)

        const company = yield* api.settings.updateCisDetails({
          path,
          payload: { type: "Company", tradingName: "Lovelace Joinery Ltd", companyNumber: "sc 1234" }
        })
        expect({ ...(yield* api.settings.getCisDetails({ path })) }).toEqual({
          ...unset,
          type: "Company",
          tradingName: "Lovelace Joinery Ltd",
          companyNumber: "SC001234"
        })
        expect(company).toEqual(yield* api.settings.getCisDetails({ path }))
      })
    )

    it.effect("refuses an invalid utr, niNumber and companyNumber with 400 naming each, and keeps the details", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerOfNewTenant("owner")
        const path = { tenant }
        const kept = yield* api.settings.updateCisDetails({ path, payload: { type: "Trust", utr: "2234567890" } })
        const invalid = {
          type: "Company",
          utr: "1234567890",
          niNumber: "TN123456A",
          companyNumber: "123456789"
        } as const

        const res = yield* putRaw(key, tenant, invalid)
        expect(res.status).toBe(400)
        expect(res.contentType).toMatch(/^application\/problem\+json/)
        expect(res.body).toMatchObject({ status: 400, title: "One or more validation errors occurred." })

        const error = yield* Effect.flip(api.settings.updateCisDetails({ path, payload: invalid }))
        assert(error._tag === "ValidationFailed")
        expect(Object.keys(error.errors).sort()).toEqual(["companyNumber", "niNumber", "utr"])
        expect(error.errors.utr).toEqual(["Must be a 10-digit UTR with a valid check digit, for example 2234567890"])
        expect(error.detail).toContain("utr, niNumber, companyNumber")
        expect(yield* api.settings.getCisDetails({ path })).toEqual(kept)
      })
    )

    it.effect("refuses a body without a type, or with a wrong type of member, with 400 naming it", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("owner")
        const missing = yield* putRaw(key, tenant, { firstName: "Ada" })
        expect(missing.status).toBe(400)
        expect(missing.body?.errors).toEqual({ type: ["Required"] })
        const wrong = yield* putRaw(key, tenant, { type: "Cooperative", utr: 2234567890 })
        expect(wrong.status).toBe(400)
        expect(Object.keys(wrong.body?.errors ?? {}).sort()).toEqual(["type", "utr"])
      })
    )

    it.effect("are 403 for a non-member and 404 for an unknown tenant, and a refused PUT changes nothing", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* ownerOfNewTenant("owner")
        const stranger = yield* signUp("stranger")
        const path = { tenant }
        const payload = { type: "SoleTrader", firstName: "Mallory", utr: "2234567890" } as const
        expect((yield* Effect.flip(stranger.api.settings.getCisDetails({ path })))._tag).toBe("Forbidden")
        expect((yield* Effect.flip(stranger.api.settings.updateCisDetails({ path, payload })))._tag).toBe("Forbidden")
        const answer = yield* putRaw(stranger.key, tenant, payload)
        expect([answer.status, answer.contentType.split(";")[0]]).toEqual([403, "application/problem+json"])
        expect({ ...(yield* api.settings.getCisDetails({ path })) }).toEqual(unset)

        const unknown = { tenant: uniqueTenantCode("nowhere") }
        expect((yield* Effect.flip(api.settings.getCisDetails({ path: unknown })))._tag).toBe("NotFound")
        expect((yield* Effect.flip(api.settings.updateCisDetails({ path: unknown, payload })))._tag).toBe("NotFound")
        expect((yield* putRaw(stranger.key, unknown.tenant, payload)).status).toBe(404)
      })
    )

    it.effect("are documented in the OpenAPI document", () =>
      Effect.gen(function* () {
        const http = yield* HttpClient.HttpClient
        const doc = (yield* Effect.flatMap(http.get("/openapi.json"), (r) => r.json)) as Record<string, any>
        const operations = doc.paths["/tenants/{tenant}/settings/cis-details"]
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
        expect(operations.put.summary).toBe("Replace the tenant's CIS details")
        expect(doc.components.schemas.TenantCisDetailsDto.properties.type).toBeDefined()
      })
    )
  })
})
