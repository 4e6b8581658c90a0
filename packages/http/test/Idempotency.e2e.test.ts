import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { withIdempotencyKey } from "@cisbook/sdk/IdempotencyKey"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Ref } from "effect"
import { randomUUID } from "node:crypto"
import { e2e, raw, SqlTestPorts, ownerOfNewTenant, uniqueTenantCode } from "./E2E.js"

const onPostgres = process.env["CISBOOK_TEST_DATABASE_URL"] !== undefined

/** The insert of a contact named "Gated" says it has arrived, then waits until the test opens the gate. */
const arrived = Effect.runSync(Deferred.make<void>())
const gate = Effect.runSync(Deferred.make<void>())

/** The first tenant named "Flaky Ltd" fails to be stored, as a lost connection would fail it. */
const FLAKY = "Flaky Ltd"

const Ports = Layer.mergeAll(
  Layer.effect(
    ContactRepo,
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      return ContactRepo.of({
        ...repo,
        insert: (contact) =>
          contact.name === "Gated"
            ? Deferred.succeed(arrived, undefined).pipe(
                Effect.zipRight(Deferred.await(gate)),
                Effect.zipRight(repo.insert(contact))
              )
            : repo.insert(contact)
      })
    })
  ),
  Layer.effect(
    TenantRepo,
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const failed = yield* Ref.make(false)
      return TenantRepo.of({
        ...repo,
        insert: (tenant, owner) =>
          tenant.name !== FLAKY
            ? repo.insert(tenant, owner)
            : Effect.flatMap(Ref.getAndSet(failed, true), (already) =>
                already ? repo.insert(tenant, owner) : Effect.die(new Error("connection lost while storing the tenant"))
              )
      })
    })
  )
).pipe(Layer.provideMerge(SqlTestPorts))

const contact = (name: string) => ({ name, isSupplier: true }) as const

const contactCount = (key: string, tenant: string) =>
  Effect.map(raw(key, "GET", `/tenants/${tenant}/contacts?limit=50`), (res) => res.body?.["totalCount"] as number)

/** A POST with an Idempotency-Key, sent as any HTTP client would send it. */
const keyedPost = (apiKey: string, idempotencyKey: string, url: string, body: unknown) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(
      HttpClientRequest.post(url).pipe(
        HttpClientRequest.setHeaders({ "x-api-key": apiKey, "idempotency-key": idempotencyKey }),
        HttpClientRequest.bodyUnsafeJson(body)
      )
    )
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.json, (body) => ({
        status: response.status,
        replayed: response.headers["idempotent-replayed"],
        contentType: response.headers["content-type"],
        body: body as Record<string, any>
      }))
    )
  )

layer(e2e(Ports), { timeout: "60 seconds" })("Idempotency-Key over HTTP", (it) => {
  describe("a retry with the same key and body", () => {
    it.effect("answers the first answer again, marked as replayed, and creates once", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerOfNewTenant("retry")
        const create = api.contacts
          .createContact({ path: { tenant }, payload: contact("Ada Lovelace Builders"), withResponse: true })
          .pipe(withIdempotencyKey(randomUUID()))
        const [first, firstResponse] = yield* create
        const [again, againResponse] = yield* create
        expect(firstResponse.status).toBe(201)
        expect(firstResponse.headers["idempotent-replayed"]).toBeUndefined()
        expect(againResponse.status).toBe(201)
        expect(againResponse.headers["idempotent-replayed"]).toBe("true")
        expect(againResponse.headers["content-type"]).toBe(firstResponse.headers["content-type"])
        expect(again).toEqual(first)
        expect(yield* contactCount(key, tenant)).toBe(1)
      })
    )

    it.effect("without a key, the same request twice does the work twice", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerOfNewTenant("nokey")
        const create = api.contacts.createContact({ path: { tenant }, payload: contact("Twice Builders") })
        const first = yield* create
        const second = yield* create
        expect(second.code).not.toBe(first.code)
        expect(yield* contactCount(key, tenant)).toBe(2)
      })
    )

    it.effect("replays a refusal the endpoint made (a 404) the same way", () =>
      Effect.gen(function* () {
        const { key } = yield* ownerOfNewTenant("missing")
        const idempotencyKey = randomUUID()
        const url = `/tenants/${uniqueTenantCode("nobody")}/contacts`
        const first = yield* keyedPost(key, idempotencyKey, url, contact("Nobody"))
        const again = yield* keyedPost(key, idempotencyKey, url, contact("Nobody"))
        expect(first.status).toBe(404)
        expect(again).toEqual({ ...first, replayed: "true" })
      })
    )
  })

  describe("refusals", () => {
    it.effect("the same key with another body is 409, and nothing is created", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerOfNewTenant("mismatch")
        const idempotencyKey = randomUUID()
        const create = (name: string) =>
          api.contacts
            .createContact({ path: { tenant }, payload: contact(name) })
            .pipe(withIdempotencyKey(idempotencyKey))
        yield* create("First Builders")
        const error = yield* Effect.flip(create("Second Builders"))
        expect(error._tag).toBe("Conflict")
        expect(error).toMatchObject({ detail: expect.stringContaining("different request") })
        expect(yield* contactCount(key, tenant)).toBe(1)
      })
    )

    it.effect("the same key on another path is 409 too", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("otherpath")
        const idempotencyKey = randomUUID()
        const first = yield* keyedPost(key, idempotencyKey, `/tenants/${tenant}/contacts`, contact("Path Builders"))
        const other = yield* keyedPost(key, idempotencyKey, "/me/api-keys", { name: "Path Builders" })
        expect(first.status).toBe(201)
        expect(other.status).toBe(409)
        expect(other.contentType).toMatch(/^application\/problem\+json/)
        expect(other.body).toMatchObject({ status: 409, title: "Conflict" })
      })
    )

    it.effect("a key longer than 255 characters, or blank, is 400 and creates nothing", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("badkey")
        for (const idempotencyKey of ["k".repeat(256), " "]) {
          const res = yield* keyedPost(key, idempotencyKey, `/tenants/${tenant}/contacts`, contact("Bad Key Builders"))
          expect(res.status).toBe(400)
          expect(res.contentType).toMatch(/^application\/problem\+json/)
          expect(res.body["detail"]).toContain("Idempotency-Key")
        }
        expect(yield* contactCount(key, tenant)).toBe(0)
      })
    )
  })

  it.effect("keys belong to the caller: another user's request with the same key and body is their own", () =>
    Effect.gen(function* () {
      const idempotencyKey = randomUUID()
      const ada = yield* ownerOfNewTenant("ada")
      const bob = yield* ownerOfNewTenant("bob")
      const createKey = (api: typeof ada.api) =>
        api.me.createApiKey({ payload: { name: "ci" } }).pipe(withIdempotencyKey(idempotencyKey))
      const adas = yield* createKey(ada.api)
      const bobs = yield* createKey(bob.api)
      expect(bobs.id).not.toBe(adas.id)
      expect(bobs.key).not.toBe(adas.key)
      // Each one's retry answers their own.
      expect((yield* createKey(bob.api)).id).toBe(bobs.id)
      expect((yield* createKey(ada.api)).id).toBe(adas.id)
    })
  )

  it.effect("a 5xx answer is not kept: the retry does the work, and its answer is the one replayed", () =>
    Effect.gen(function* () {
      const { key } = yield* ownerOfNewTenant("flaky")
      const idempotencyKey = randomUUID()
      const body = { code: uniqueTenantCode("flaky"), name: FLAKY }
      const failed = yield* keyedPost(key, idempotencyKey, "/tenants", body)
      const retried = yield* keyedPost(key, idempotencyKey, "/tenants", body)
      const replayed = yield* keyedPost(key, idempotencyKey, "/tenants", body)
      expect(failed.status).toBe(500)
      expect(retried.status).toBe(201)
      expect(retried.replayed).toBeUndefined()
      expect(replayed).toEqual({ ...retried, replayed: "true" })
    })
  )

  it.effect("requests racing with one key do the work once; each gets the answer or a 409 to retry", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* ownerOfNewTenant("race")
      const idempotencyKey = randomUUID()
      const answers = yield* Effect.all(
        Array.from({ length: 8 }, () =>
          keyedPost(key, idempotencyKey, `/tenants/${tenant}/contacts`, contact("Race Builders"))
        ),
        { concurrency: "unbounded" }
      )
      const created = answers.filter((a) => a.status === 201)
      expect(created.length).toBeGreaterThanOrEqual(1)
      expect(new Set(created.map((a) => a.body["code"]))).toEqual(new Set([created[0]!.body["code"]]))
      for (const answer of answers.filter((a) => a.status !== 201)) {
        expect(answer.status).toBe(409)
        expect(answer.body["detail"]).toContain("still being processed")
      }
      expect(yield* contactCount(key, tenant)).toBe(1)
    })
  )

  // On PGlite one connection serves every request, so a create held inside its transaction
  // would hold the key's claim query too: this one needs PostgreSQL's pool. The retries go by
  // fetch: the platform's Node client did not read a second answer's body while its first
  // request was still waiting (seen with @effect/platform-node 0.108).
  it.effect.skipIf(!onPostgres)(
    "while the first request is still running, a retry with its key is 409; after it, the answer",
    () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("inflight")
        const idempotencyKey = randomUUID()
        const url = `/tenants/${tenant}/contacts`
        const base = yield* HttpServer.addressFormattedWith(Effect.succeed)
        const post = Effect.promise(() =>
          fetch(`${base}${url}`, {
            method: "POST",
            headers: { "x-api-key": key, "idempotency-key": idempotencyKey, "content-type": "application/json" },
            body: JSON.stringify(contact("Gated"))
          }).then(async (res) => ({
            status: res.status,
            replayed: res.headers.get("idempotent-replayed"),
            body: (await res.json()) as Record<string, any>
          }))
        )
        const first = yield* Effect.fork(post)
        // The first request holds the key and waits at the gate: a retry finds it in progress.
        yield* Deferred.await(arrived)
        const retry = yield* post
        expect(retry.status).toBe(409)
        expect(retry.body["detail"]).toContain("still being processed")
        expect(first.unsafePoll()).toBeNull()
        yield* Deferred.succeed(gate, undefined)
        const firstAnswer = yield* Fiber.join(first)
        expect(firstAnswer).toMatchObject({ status: 201, replayed: null })
        const after = yield* post
        expect(after).toEqual({ ...firstAnswer, replayed: "true" })
        expect(yield* contactCount(key, tenant)).toBe(1)
      })
  )

  it.effect("the Promise client takes an idempotency key per call", () =>
    Effect.gen(function* () {
      const { key } = yield* ownerOfNewTenant("promise")
      const baseUrl = yield* HttpServer.addressFormattedWith(Effect.succeed)
      const cisbook = yield* Effect.promise(() => createPromiseClient({ baseUrl, credentials: { apiKey: key } }))
      const idempotencyKey = randomUUID()
      const payload = { code: uniqueTenantCode("promise"), name: "Promise Ltd" }
      const first = yield* Effect.promise(() => cisbook.tenants.createTenant({ payload }, { idempotencyKey }))
      const again = yield* Effect.promise(() => cisbook.tenants.createTenant({ payload }, { idempotencyKey }))
      expect(again).toEqual(first)
      const other = yield* Effect.promise(() =>
        cisbook.tenants.createTenant({ payload }, { idempotencyKey: randomUUID() }).then(
          () => "created",
          (error: { readonly _tag: string }) => error._tag
        )
      )
      expect(other).toBe("Conflict")
    })
  )
})
