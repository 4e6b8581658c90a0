import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Runtime } from "effect"
import fc from "fast-check"
import { e2e, SqlTestPorts, tenantOwner } from "./E2E.js"

/** Requests per run: enough to reach every operation many times in CI; FUZZ_RUNS raises it. */
const RUNS = Number(process.env["FUZZ_RUNS"] ?? 2000)
const SEED = Number(process.env["FUZZ_SEED"] ?? 20261123)

type Json = Record<string, any>

interface Operation {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
  readonly members: ReadonlyArray<string>
  readonly multipart: boolean
}

/** Every operation of the served document, with the names a caller can fill in. */
const operationsOf = (doc: Json): ReadonlyArray<Operation> =>
  Object.entries(doc["paths"] as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]: [string, Json]) => {
        const content = (operation["requestBody"]?.content ?? {}) as Json
        const schema = (content["application/json"]?.schema ?? {}) as Json
        const ref = typeof schema["$ref"] === "string" ? (schema["$ref"] as string).split("/").pop()! : undefined
        const resolved = ref === undefined ? schema : ((doc["components"]?.schemas?.[ref] ?? {}) as Json)
        return {
          method: method.toUpperCase(),
          path,
          query: ((operation["parameters"] ?? []) as Array<Json>)
            .filter((p) => p["in"] === "query")
            .map((p) => p["name"]),
          members: Object.keys(resolved["properties"] ?? {}),
          multipart: content["multipart/form-data"] !== undefined
        }
      })
  )

const hostileString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udc00y",
    "😀",
    "x".repeat(12_000),
    "%00",
    "../../etc/passwd",
    "' OR 1=1 --",
    "\u202e",
    "  ",
    "",
    "00000000-0000-0000-0000-000000000000",
    "2026-02-30",
    "-1",
    "1e400",
    "NaN"
  )
)

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 3 })
  )
})).value

/** UTF-8 percent-encoded (a lone surrogate too, as U+FFFD), unreserved characters as they are. */
const percent = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`
    )
    .join("")

const bodyFor = (operation: Operation) =>
  operation.multipart
    ? fc.oneof(
        fc.record({
          text: fc
            .string({ maxLength: 200 })
            .map((s) => `--b\r\nContent-Disposition: form-data; name="file"\r\n\r\n${s}`),
          contentType: fc.constantFrom("multipart/form-data; boundary=b", "multipart/form-data; boundary=", "text/csv")
        }),
        fc.record({
          text: fc.string({ maxLength: 100 }),
          contentType: fc.constant("multipart/form-data; boundary=b")
        })
      )
    : fc.oneof(
        fc
          .record({
            filled: fc.dictionary(
              fc.constantFrom(...(operation.members.length > 0 ? operation.members : ["x"])),
              hostileValue
            ),
            extra: fc.dictionary(hostileString, hostileValue, { maxKeys: 2 })
          })
          .map(({ extra, filled }) => ({
            text: JSON.stringify({ ...extra, ...filled }),
            contentType: "application/json"
          })),
        fc.record({ text: fc.string({ maxLength: 40 }), contentType: fc.constant("application/json") }),
        fc.record({
          text: fc.nat({ max: 5000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
          contentType: fc.constant("application/json")
        }),
        fc.record({
          text: fc.json(),
          contentType: fc.constantFrom("application/json", "text/plain", "application/xml")
        })
      )

const INTERNALS =
  /node_modules|\.ts:\d|\/tmp\/|SqlError|PgError|stack|at [A-Za-z.]+ \(|ECONN|SELECT |INSERT |UPDATE |Fiber/

layer(e2e(SqlTestPorts), { timeout: "600 seconds" })("the API under fuzzing", (it) => {
  it.effect(`answers ${RUNS} malformed requests over every operation: no 5xx, problem+json errors, no internals`, () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* tenantOwner("fuzz")
      const http = yield* HttpClient.HttpClient
      const doc = (yield* Effect.flatMap(http.get("/openapi.json"), (res) => res.json)) as Json
      const operations = operationsOf(doc)
      expect(operations.length).toBeGreaterThan(30)
      const run = Runtime.runPromise(yield* Effect.runtime<never>())
      const seen = new Set<string>()

      const request = fc.constantFrom(...operations).chain((operation) =>
        fc.record({
          operation: fc.constant(operation),
          ownTenant: fc.boolean(),
          params: fc.array(hostileString, { minLength: 3, maxLength: 3 }),
          query: fc.dictionary(
            fc.constantFrom(...(operation.query.length > 0 ? operation.query : ["q"])),
            hostileString
          ),
          body: bodyFor(operation),
          signedIn: fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x < 0.9)
        })
      )

      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(request, async ({ body, operation, ownTenant, params, query, signedIn }) => {
            seen.add(`${operation.method} ${operation.path}`)
            let i = 0
            const path = operation.path.replace(/\{([^}]+)\}/g, (_: string, name: string) =>
              name === "tenant" && ownTenant ? tenant : percent(params[i++ % params.length] ?? "")
            )
            const search = Object.entries(query)
              .map(([name, value]) => `${name}=${percent(value)}`)
              .join("&")
            const url = search === "" ? path : `${path}?${search}`
            let outgoing = HttpClientRequest.make(operation.method as "GET")(url)
            if (signedIn) outgoing = HttpClientRequest.setHeader(outgoing, "x-api-key", key)
            if (operation.method !== "GET" && operation.method !== "DELETE") {
              outgoing = HttpClientRequest.bodyText(outgoing, body.text, body.contentType)
            }
            const answer = await run(
              Effect.flatMap(http.execute(outgoing), (res) =>
                Effect.map(res.text, (text) => ({ status: res.status, type: res.headers["content-type"] ?? "", text }))
              )
            )
            const where = `${operation.method} ${url.slice(0, 300)} ${body.text.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`
            expect(answer.status, where).toBeLessThan(500)
            if (answer.status >= 400) {
              expect(answer.type, where).toMatch(
                answer.status === 401 ? /^application\/json/ : /^application\/problem\+json/
              )
              const problem = JSON.parse(answer.text) as Json
              expect(problem["status"], where).toBe(answer.status)
              expect(typeof problem["title"], where).toBe("string")
              expect(answer.text, where).not.toMatch(INTERNALS)
            }
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true }
        )
      )
      expect(seen.size).toBe(operations.length)
    })
  )
})
