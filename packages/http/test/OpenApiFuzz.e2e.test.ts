import { HttpClient, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import * as Net from "node:net"
import { e2e, SqlTestPorts, ownerOfNewTenant } from "./E2E.js"

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

/** Deep nesting, huge numbers, duplicate members: JSON the parser takes that no endpoint expects. */
const awkwardJson = fc.oneof(
  fc.nat({ max: 5000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  fc.nat({ max: 5000 }).map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
  fc.constantFrom(
    '{"name":1e999999}',
    '{"amount":123456789012345678901234567890123456789}',
    '{"name":"a","name":"b","name":{"name":[]}}',
    "-0",
    "null",
    '""'
  )
)

/** Content types a JSON operation may be sent with by a careless client; undefined sends none. */
const jsonishType = fc.constantFrom(
  undefined,
  "application/json",
  "Application/JSON; charset=utf-8",
  "application/merge-patch+json",
  "application/problem+json",
  "application/jsonx",
  "application/x-www-form-urlencoded",
  "text/plain",
  "application/xml",
  "application/octet-stream"
)

const bodyFor = (operation: Operation) =>
  operation.multipart
    ? fc.oneof(
        fc.record({
          text: fc
            .tuple(fc.string({ maxLength: 200 }), fc.constantFrom("", "--b--", "\r\n--b", "\r\n--b--"))
            .map(([s, end]) => `--b\r\nContent-Disposition: form-data; name="file"\r\n\r\n${s}${end}`),
          contentType: fc.constantFrom(
            "multipart/form-data; boundary=b",
            "multipart/form-data; boundary=",
            "multipart/mixed; boundary=b",
            "text/csv",
            "application/json",
            undefined
          )
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
        fc.record({ text: fc.oneof(fc.json(), awkwardJson), contentType: jsonishType })
      )

interface Answer {
  readonly status: number
  readonly type: string
  readonly text: string
}

const dechunk = (body: Buffer): Buffer => {
  const parts: Array<Buffer> = []
  let at = 0
  for (;;) {
    const line = body.indexOf("\r\n", at)
    const size = parseInt(body.subarray(at, line).toString("latin1"), 16)
    if (line < 0 || !(size > 0)) return Buffer.concat(parts)
    parts.push(body.subarray(line + 2, line + 2 + size))
    at = line + 2 + size + 2
  }
}

/**
 * Sends the request as written, on a connection of its own, and reads the answer until the
 * server closes; no answer within 5 s is an answer too (status 0), one the test refuses.
 */
const exchange = (port: number, head: string, body: Buffer) =>
  new Promise<Answer>((resolve) => {
    const socket = Net.connect(port, "127.0.0.1", () => socket.write(Buffer.concat([Buffer.from(head), body])))
    const received: Array<Buffer> = []
    const hang = setTimeout(() => socket.destroy(), 5_000)
    socket.on("data", (data) => received.push(data))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearTimeout(hang)
      const all = Buffer.concat(received)
      const end = all.indexOf("\r\n\r\n")
      const lines = all.subarray(0, Math.max(end, 0)).toString("latin1").split("\r\n")
      const header = (name: string) =>
        lines
          .find((line) => line.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? ""
      const raw = end < 0 ? Buffer.alloc(0) : all.subarray(end + 4)
      const text = (header("transfer-encoding") === "chunked" ? dechunk(raw) : raw).toString()
      resolve({ status: Number(lines[0]?.split(" ")[1] ?? 0), type: header("content-type"), text })
    })
  })

const INTERNALS =
  /node_modules|\.ts:\d|\/tmp\/|SqlError|PgError|stack|at [A-Za-z.]+ \(|ECONN|SELECT |INSERT |UPDATE |Fiber/

layer(e2e(SqlTestPorts), { timeout: "600 seconds" })("the API under fuzzing", (it) => {
  it.effect(`answers ${RUNS} malformed requests over every operation: no 5xx, problem+json errors, no internals`, () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* ownerOfNewTenant("fuzz")
      const http = yield* HttpClient.HttpClient
      const doc = (yield* Effect.flatMap(http.get("/openapi.json"), (res) => res.json)) as Json
      const operations = operationsOf(doc)
      expect(operations.length).toBeGreaterThan(30)
      const { address } = yield* HttpServer.HttpServer
      const port = address._tag === "TcpAddress" ? address.port : 0
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
          junk: fc.boolean(),
          body: bodyFor(operation),
          signedIn: fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x < 0.9),
          withHost: fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x < 0.95)
        })
      )

      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(request, async ({ body, junk, operation, ownTenant, params, query, signedIn, withHost }) => {
            seen.add(`${operation.method} ${operation.path}`)
            let i = 0
            const path = operation.path.replace(/\{([^}]+)\}/g, (_: string, name: string) =>
              name === "tenant" && ownTenant ? tenant : percent(params[i++ % params.length] ?? "")
            )
            const search = [
              ...Object.entries(query).map(([name, value]) => `${name}=${percent(value)}`),
              ...(junk ? ["junk2=true"] : [])
            ].join("&")
            const url = search === "" ? path : `${path}?${search}`
            const sendsBody = operation.method !== "GET" && operation.method !== "DELETE"
            const bytes = sendsBody ? Buffer.from(body.text) : Buffer.alloc(0)
            const head = [
              `${operation.method} ${url} HTTP/1.1`,
              ...(withHost ? ["Host: 127.0.0.1"] : []),
              ...(signedIn ? [`x-api-key: ${key}`] : []),
              ...(sendsBody && body.contentType !== undefined ? [`Content-Type: ${body.contentType}`] : []),
              ...(sendsBody ? [`Content-Length: ${bytes.length}`] : []),
              "Connection: close",
              "",
              ""
            ].join("\r\n")
            const answer = await exchange(port, head, bytes)
            const sent = `${withHost ? "" : "(no Host) "}${body.contentType ?? "(no Content-Type)"}`
            const where = `${operation.method} ${url.slice(0, 300)} ${sent} ${body.text.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`
            expect(answer.status, where).toBeGreaterThan(0)
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
