import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  e2e,
  IdentityProvider,
  raw,
  signUp,
  sqlTestPorts,
  ownerOfNewTenant,
  uniqueEmail,
  uniqueTenantCode
} from "./E2E.js"

/** `requests` first requests at once, each bearing `token`, and the status and user id each got. */
const concurrentFirstRequests = (token: string, requests: number) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    Effect.all(
      Array.from({ length: requests }, () =>
        http
          .execute(HttpClientRequest.get("/me").pipe(HttpClientRequest.bearerToken(token)))
          .pipe(
            Effect.flatMap((response) =>
              Effect.map(response.json, (body) => ({ status: response.status, body: body as Record<string, unknown> }))
            )
          )
      ),
      { concurrency: "unbounded" }
    )
  )

layer(e2e(sqlTestPorts({ allowPrivateTargets: true })), { timeout: "120 seconds" })("requests racing", (it) => {
  describe("webhooks", () => {
    it.effect("of 20 DELETEs of one webhook at once, exactly one answers 204, the others 404", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerOfNewTenant("race-delete")
        const webhook = yield* api.webhooks.createWebhook({
          path: { tenant },
          payload: { url: "http://127.0.0.1:9/never-called" }
        })
        const answers = yield* Effect.all(
          Array.from({ length: 20 }, () => raw(key, "DELETE", `/tenants/${tenant}/webhooks/${webhook.id}`)),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((a) => a.status).sort()
        expect(statuses).toEqual([204, ...Array.from({ length: 19 }, () => 404)])
      })
    )
  })

  // A front end fires its first calls in parallel: none of them may log its user out.
  describe("first sign-in", () => {
    const expectOneUser = (
      answers: ReadonlyArray<{ status: number; body: Record<string, unknown> }>,
      email: string
    ) => {
      expect(answers.map((a) => [a.status, a.body["email"]])).toEqual(answers.map(() => [200, email]))
      expect(new Set(answers.map((a) => a.body["id"])).size).toBe(1)
    }

    it.effect("5 concurrent first requests of a new identity are all answered as one new user, 10 times over", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        for (let round = 0; round < 10; round++) {
          const email = uniqueEmail("first")
          const token = yield* Effect.promise(() => idp.sign({ sub: `sub-${email}`, email, name: "First Comer" }))
          expectOneUser(yield* concurrentFirstRequests(token, 5), email)
        }
      })
    )

    it.effect("5 concurrent first requests of an invited member all link the invited user, 10 times over", () =>
      Effect.gen(function* () {
        const idp = yield* IdentityProvider
        const owner = yield* signUp("race-inviter")
        const tenant = uniqueTenantCode("race-inv")
        yield* owner.api.tenants.createTenant({ payload: { code: tenant, name: "Inviting Ltd" } })
        for (let round = 0; round < 10; round++) {
          const email = uniqueEmail("invited")
          yield* owner.api.tenants.addMember({ path: { tenant }, payload: { email, role: "Member" } })
          const token = yield* Effect.promise(() => idp.sign({ sub: `sub-${email}`, email, name: `Invited ${round}` }))
          expectOneUser(yield* concurrentFirstRequests(token, 5), email)
        }
        // Each token signed in as the invited user (who took its name), not as a second user.
        const members = yield* owner.api.tenants.listMembers({ path: { tenant } })
        expect(members.filter((m) => m.name.startsWith("Invited ")).length).toBe(10)
        expect(members.length).toBe(11)
      })
    )
  })
})
