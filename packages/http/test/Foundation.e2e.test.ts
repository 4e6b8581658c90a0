import { HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { client, e2e, IdentityProvider, signUp, SqlTestPorts, uniqueEmail, uniqueTenantCode } from "./E2E.js"

const raw = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(HttpClient.HttpClient, (http) => http.execute(request)).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({
        status: response.status,
        contentType: response.headers["content-type"] ?? "",
        body: text === "" ? undefined : (JSON.parse(text) as Record<string, any>)
      }))
    )
  )

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("foundation over HTTP", (it) => {
  describe("health and documents", () => {
    it.effect("answers /health without credentials", () =>
      Effect.gen(function* () {
        const api = yield* client()
        expect(yield* api.system.health()).toEqual({ status: "ok" })
      })
    )

    it.effect("serves the OpenAPI 3.1 document and the docs page", () =>
      Effect.gen(function* () {
        const doc = yield* raw(HttpClientRequest.get("/openapi.json"))
        expect(doc.status).toBe(200)
        expect(doc.body?.openapi).toBe("3.1.0")
        expect(Object.keys(doc.body?.paths ?? {})).toEqual(
          expect.arrayContaining(["/health", "/me", "/tenants", "/me/api-keys"])
        )
        expect(doc.body?.components.securitySchemes).toHaveProperty("apiKey")
        expect(doc.body?.components.securitySchemes).toHaveProperty("bearer")
        const validation = yield* Effect.promise(() => new Validator().validate(doc.body ?? {}))
        expect(validation.errors).toBeUndefined()
        expect(validation.valid).toBe(true)
        const docs = yield* Effect.flatMap(HttpClient.HttpClient, (http) => http.get("/docs"))
        expect(docs.status).toBe(200)
        expect(docs.headers["content-type"]).toContain("text/html")
      })
    )
  })

  describe("authentication", () => {
    it.effect("refuses a request without credentials with a 401 JSON problem", () =>
      Effect.gen(function* () {
        const res = yield* raw(HttpClientRequest.get("/me"))
        expect(res.status).toBe(401)
        expect(res.contentType).toMatch(/^application\/json/)
        expect(res.body).toMatchObject({ status: 401, title: "Unauthorized" })
        expect(res.body?.detail).toContain("x-api-key")
      })
    )

    it.effect("refuses an unknown API key and a malformed Authorization header", () =>
      Effect.gen(function* () {
        const badKey = yield* raw(
          HttpClientRequest.get("/me").pipe(HttpClientRequest.setHeader("x-api-key", "cis_nope"))
        )
        expect(badKey.status).toBe(401)
        expect(badKey.body?.detail).toContain("API key is not valid")
        const basic = yield* raw(
          HttpClientRequest.get("/me").pipe(HttpClientRequest.setHeader("authorization", "Basic dXNlcjpwYXNz"))
        )
        expect(basic.status).toBe(401)
        expect(basic.body?.detail).toContain("Bearer")
      })
    )

    it.effect("refuses two credentials in one request with a 401 naming the conflict, whichever is valid", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const { key } = yield* signUp("twocreds")
        const email = uniqueEmail("twocreds-token")
        const token = yield* Effect.promise(() => idp.sign({ sub: `sub-${email}`, email, name: "Token Holder" }))
        const both = (apiKey: string, bearer: string) =>
          raw(
            HttpClientRequest.get("/me").pipe(
              HttpClientRequest.setHeader("x-api-key", apiKey),
              HttpClientRequest.bearerToken(bearer)
            )
          )
        // Each alone is accepted.
        expect(
          (yield* raw(HttpClientRequest.get("/me").pipe(HttpClientRequest.setHeader("x-api-key", key)))).status
        ).toBe(200)
        expect((yield* raw(HttpClientRequest.get("/me").pipe(HttpClientRequest.bearerToken(token)))).status).toBe(200)
        for (const [apiKey, bearer] of [
          [key, token],
          ["cis_not-a-key", token],
          [key, "not.a.token"]
        ] as const) {
          const res = yield* both(apiKey, bearer)
          expect(res.status).toBe(401)
          expect(res.contentType).toMatch(/^application\/json/)
          expect(res.body).toMatchObject({ status: 401, title: "Unauthorized" })
          expect(res.body?.detail).toContain("two credentials")
        }
        // Through the SDK: a token's client whose requests also carry a key gets the typed 401.
        const http = yield* HttpClient.HttpClient
        const api = yield* client({ accessToken: token }).pipe(
          Effect.provideService(
            HttpClient.HttpClient,
            HttpClient.mapRequest(http, HttpClientRequest.setHeader("x-api-key", key))
          )
        )
        const refused = yield* Effect.flip(api.me.getMe())
        assert(refused._tag === "Unauthorized")
        expect(refused.detail).toContain("two credentials")
      })
    )

    it.effect("documents the conflict of two credentials in the OpenAPI document", () =>
      Effect.gen(function* () {
        const doc = yield* raw(HttpClientRequest.get("/openapi.json"))
        const schemes = doc.body?.components.securitySchemes
        expect(schemes.apiKey.description).toContain("refused (401)")
        expect(schemes.bearer.description).toContain("refused (401)")
      })
    )

    it.effect("lets a user made by the admin path call the API with their key", () =>
      Effect.gen(function* () {
        const { api, user } = yield* signUp("ada")
        const me = yield* api.me.getMe()
        expect(me).toMatchObject({ id: user.id, email: user.email, name: "ada" })
      })
    )

    it.effect("creates a user on first sight of a valid bearer token, who can create and see a tenant", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const email = uniqueEmail("grace")
        const token = yield* Effect.promise(() => idp.sign({ sub: `sub-${email}`, email, name: "Grace Hopper" }))
        const api = yield* client({ accessToken: token })
        const me = yield* api.me.getMe()
        expect(me).toMatchObject({ email, name: "Grace Hopper" })
        const code = uniqueTenantCode("grace")
        const created = yield* api.tenants.createTenant({ payload: { code, name: "Grace Ltd" } })
        expect(created).toMatchObject({ code, name: "Grace Ltd", role: "Owner", email: null })
        const mine = yield* api.me.listMyTenants()
        expect(mine.map((t) => t.code)).toEqual([code])
        // The same subject is the same user on the next request.
        expect((yield* api.me.getMe()).id).toBe(me.id)
      })
    )

    it.effect("signs in a token without an email claim as a user whose email is null, who can own a tenant", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const subject = `sub-no-email-${uniqueTenantCode()}`
        const token = yield* Effect.promise(() => idp.sign({ sub: subject, name: "Nora Noemail" }))
        const api = yield* client({ accessToken: token })
        const me = yield* api.me.getMe()
        expect(me).toMatchObject({ email: null, name: "Nora Noemail" })
        const code = uniqueTenantCode("nora")
        yield* api.tenants.createTenant({ payload: { code, name: "Nora Ltd" } })
        expect(yield* api.tenants.listMembers({ path: { tenant: code } })).toMatchObject([
          { email: null, name: "Nora Noemail", role: "Owner" }
        ])
        expect((yield* api.me.getMe()).id).toBe(me.id)
      })
    )

    it.effect("refuses expired, foreign-audience, unsigned and HMAC-signed tokens", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const claims = { sub: "sub-x", email: uniqueEmail("x") }
        const expired = yield* Effect.promise(() => idp.sign(claims, { expiresIn: "-1m" }))
        const foreign = yield* Effect.promise(() => idp.sign(claims, { audience: "someone-else" }))
        const header = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url")
        const unsigned = `${header({ alg: "none" })}.${header({ ...claims, iss: "https://id.test.cisbook", aud: "cisbook-api", exp: 9999999999 })}.`
        const hmac = `${header({ alg: "HS256", kid: "test-key" })}.${header({ ...claims, exp: 9999999999 })}.c2ln`
        const details: Array<string> = []
        for (const token of [expired, foreign, unsigned, hmac]) {
          const res = yield* raw(HttpClientRequest.get("/me").pipe(HttpClientRequest.bearerToken(token)))
          expect(res.status).toBe(401)
          expect(res.contentType).toMatch(/^application\/json/)
          details.push(res.body?.detail)
        }
        expect(details[0]).toContain("expired")
        expect(details[1]).toContain("not issued for this service")
      })
    )

    it.effect("refuses a token without exp, or issued in the future beyond the clock skew (RFC 8725)", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const claims = { sub: `sub-${uniqueEmail("skew")}`, email: uniqueEmail("skew"), name: "Skew" }
        const now = Math.floor(Date.now() / 1000)
        const call = (token: string) => raw(HttpClientRequest.get("/me").pipe(HttpClientRequest.bearerToken(token)))
        const noExp = yield* call(yield* Effect.promise(() => idp.sign(claims, { expiresIn: null })))
        expect(noExp).toMatchObject({ status: 401, body: { detail: expect.stringContaining("exp") } })
        const future = yield* call(
          yield* Effect.promise(() => idp.sign(claims, { issuedAt: now + 86_400, expiresIn: "2d" }))
        )
        expect(future).toMatchObject({ status: 401, body: { detail: expect.stringContaining("future") } })
        const skewed = yield* call(yield* Effect.promise(() => idp.sign(claims, { issuedAt: now + 30 })))
        expect(skewed.status).toBe(200)
      })
    )
  })

  describe("tenants", () => {
    it.effect("lists every invalid member of a create request and changes nothing", () =>
      Effect.gen(function* () {
        const { key, api } = yield* signUp("val")
        const res = yield* raw(
          HttpClientRequest.post("/tenants").pipe(
            HttpClientRequest.setHeader("x-api-key", key),
            HttpClientRequest.bodyUnsafeJson({ code: "9 bad code", name: "", email: "not-an-email" })
          )
        )
        expect(res.status).toBe(400)
        expect(res.contentType).toMatch(/^application\/problem\+json/)
        expect(res.body).toMatchObject({ status: 400, title: "One or more validation errors occurred." })
        expect(Object.keys(res.body?.errors ?? {}).sort()).toEqual(["code", "email", "name"])
        expect(yield* api.me.listMyTenants()).toEqual([])
      })
    )

    it.effect("names a missing member as required", () =>
      Effect.gen(function* () {
        const { key } = yield* signUp("req")
        const res = yield* raw(
          HttpClientRequest.post("/tenants").pipe(
            HttpClientRequest.setHeader("x-api-key", key),
            HttpClientRequest.bodyUnsafeJson({ name: "X" })
          )
        )
        expect(res.status).toBe(400)
        expect(res.body?.errors).toEqual({ code: ["Required"] })
      })
    )

    it.effect("refuses a taken code with 409", () =>
      Effect.gen(function* () {
        const { api } = yield* signUp("dup")
        const code = uniqueTenantCode("dup")
        yield* api.tenants.createTenant({ payload: { code, name: "One" } })
        const error = yield* api.tenants.createTenant({ payload: { code, name: "Two" } }).pipe(Effect.flip)
        assert(error._tag === "Conflict")
        expect(error.detail).toContain(code)
      })
    )

    it.effect("keeps tenants apart: 403 for a non-member, 404 for an unknown or malformed code", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("owner")
        const stranger = yield* signUp("stranger")
        const code = uniqueTenantCode("iso")
        yield* owner.api.tenants.createTenant({ payload: { code, name: "Private Ltd" } })
        const forbidden = yield* stranger.api.tenants.getTenant({ path: { tenant: code } }).pipe(Effect.flip)
        expect(forbidden._tag).toBe("Forbidden")
        const members = yield* stranger.api.tenants.listMembers({ path: { tenant: code } }).pipe(Effect.flip)
        expect(members._tag).toBe("Forbidden")
        expect(
          (yield* stranger.api.tenants.getTenant({ path: { tenant: "no-such-tenant" } }).pipe(Effect.flip))._tag
        ).toBe("NotFound")
        expect(
          (yield* stranger.api.tenants.getTenant({ path: { tenant: "NOT A CODE!" } }).pipe(Effect.flip))._tag
        ).toBe("NotFound")
        expect(yield* stranger.api.me.listMyTenants()).toEqual([])
      })
    )

    it.effect("lets an Owner add members, and only an Owner", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("boss")
        const member = yield* signUp("worker")
        const code = uniqueTenantCode("team")
        yield* owner.api.tenants.createTenant({ payload: { code, name: "Team Ltd", email: "office@team.example" } })
        const added = yield* owner.api.tenants.addMember({
          path: { tenant: code },
          payload: { email: member.user.email, role: "Member" }
        })
        expect(added).toMatchObject({ email: member.user.email, role: "Member" })
        expect((yield* member.api.tenants.getTenant({ path: { tenant: code } })).role).toBe("Member")
        const refused = yield* member.api.tenants
          .addMember({ path: { tenant: code }, payload: { email: uniqueEmail("other"), role: "Owner" } })
          .pipe(Effect.flip)
        expect(refused._tag).toBe("Forbidden")
        const again = yield* owner.api.tenants
          .addMember({ path: { tenant: code }, payload: { email: member.user.email, role: "Owner" } })
          .pipe(Effect.flip)
        expect(again._tag).toBe("Conflict")
        const invited = uniqueEmail("invited")
        yield* owner.api.tenants.addMember({ path: { tenant: code }, payload: { email: invited, role: "Member" } })
        const list = yield* owner.api.tenants.listMembers({ path: { tenant: code } })
        expect(list.map((m) => [m.email, m.role])).toEqual(
          expect.arrayContaining([
            [owner.user.email, "Owner"],
            [member.user.email, "Member"],
            [invited, "Member"]
          ])
        )
        expect(list).toHaveLength(3)
      })
    )

    it.effect("links an invited member when they first sign in with a token", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const owner = yield* signUp("inviter")
        const code = uniqueTenantCode("inv")
        yield* owner.api.tenants.createTenant({ payload: { code, name: "Inviting Ltd" } })
        const email = uniqueEmail("newcomer")
        yield* owner.api.tenants.addMember({ path: { tenant: code }, payload: { email, role: "Member" } })
        const token = yield* Effect.promise(() => idp.sign({ sub: `sub-${email}`, email, name: "New Comer" }))
        const api = yield* client({ accessToken: token })
        expect((yield* api.me.listMyTenants()).map((t) => [t.code, t.role])).toEqual([[code, "Member"]])
      })
    )
  })

  describe("API keys", () => {
    it.effect("shows a new key once, lists keys without it, and revokes it", () =>
      Effect.gen(function* () {
        const { api } = yield* signUp("keys")
        const created = yield* api.me.createApiKey({ payload: { name: "build server" } })
        expect(created.key).toMatch(/^cis_[0-9A-Za-z]{43}$/)
        expect(created.prefix).toBe(created.key.slice(0, 10))
        const listed = yield* api.me.listApiKeys()
        expect(listed.map((k) => k.name)).toContain("build server")
        expect(listed.every((k) => !("key" in k))).toBe(true)
        const second = yield* client({ apiKey: created.key })
        expect((yield* second.me.getMe()).email).toBe((yield* api.me.getMe()).email)
        yield* api.me.revokeApiKey({ path: { apiKey: created.id } })
        const after = yield* second.me.getMe().pipe(Effect.flip)
        expect(after._tag).toBe("Unauthorized")
      })
    )

    it.effect("answers 404 for another user's key and for a malformed id", () =>
      Effect.gen(function* () {
        const alice = yield* signUp("alice")
        const bob = yield* signUp("bob")
        const key = yield* alice.api.me.createApiKey({ payload: { name: "alice's" } })
        expect((yield* bob.api.me.revokeApiKey({ path: { apiKey: key.id } }).pipe(Effect.flip))._tag).toBe("NotFound")
        expect((yield* bob.api.me.revokeApiKey({ path: { apiKey: "not-a-uuid" } }).pipe(Effect.flip))._tag).toBe(
          "NotFound"
        )
        expect((yield* alice.api.me.listApiKeys()).map((k) => k.id)).toContain(key.id)
      })
    )
  })

  describe("problems", () => {
    it.effect("answers an unknown route, malformed JSON and an oversized body with problems", () =>
      Effect.gen(function* () {
        const { key } = yield* signUp("prob")
        const unknown = yield* raw(HttpClientRequest.get("/nowhere"))
        expect(unknown.status).toBe(404)
        expect(unknown.contentType).toMatch(/^application\/problem\+json/)
        expect(unknown.body?.detail).toContain("/nowhere")
        const malformed = yield* raw(
          HttpClientRequest.post("/tenants").pipe(
            HttpClientRequest.setHeader("x-api-key", key),
            HttpClientRequest.bodyText("{not json", "application/json")
          )
        )
        expect(malformed.status).toBe(400)
        expect(malformed.contentType).toMatch(/^application\/problem\+json/)
        expect(malformed.body?.detail).toContain("JSON")
        const huge = yield* raw(
          HttpClientRequest.post("/tenants").pipe(
            HttpClientRequest.setHeader("x-api-key", key),
            HttpClientRequest.bodyText(
              JSON.stringify({ code: "x", name: "y".repeat(2 * 1024 * 1024) }),
              "application/json"
            )
          )
        )
        expect(huge.status).toBe(413)
        expect(huge.contentType).toMatch(/^application\/problem\+json/)
      })
    )
  })
})
