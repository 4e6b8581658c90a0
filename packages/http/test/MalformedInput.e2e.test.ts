import { HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Net from "node:net"
import { e2e, raw, rawText, SqlTestPorts, ownerOfNewTenant } from "./E2E.js"

/** Sends the bytes as they are on a connection of its own and answers everything the server sent until it closed. */
const rawBytes = (bytes: string) =>
  Effect.flatMap(HttpServer.HttpServer, ({ address }) =>
    Effect.async<string>((resume) => {
      const port = address._tag === "TcpAddress" ? address.port : 0
      const socket = Net.connect(port, "127.0.0.1", () => socket.write(bytes))
      let text = ""
      socket.on("data", (data) => (text += data.toString()))
      socket.on("error", () => undefined)
      socket.on("close", () => resume(Effect.succeed(text)))
    })
  )

const contactCount = (key: string, tenant: string) =>
  Effect.map(raw(key, "GET", `/tenants/${tenant}/contacts`), (res) => res.body?.totalCount as number)

layer(e2e(SqlTestPorts), { timeout: "120 seconds" })("malformed input", (it) => {
  describe("text no store can hold", () => {
    it.effect("refuses a NUL character in a body member or a query parameter with a 400 naming it", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("nul")
        const body = yield* rawText(key, "POST", `/tenants/${tenant}/contacts`, '{"name":"a\\u0000b"}')
        expect(body).toMatchObject({
          status: 400,
          contentType: expect.stringMatching(/^application\/problem\+json/),
          body: { errors: { name: ["Must not contain the NUL character (U+0000)"] } }
        })
        const query = yield* raw(key, "GET", `/tenants/${tenant}/contacts?search=abc%00def`)
        expect(query).toMatchObject({ status: 400, body: { errors: { search: [expect.stringContaining("NUL")] } } })
        const path = yield* raw(key, "GET", `/tenants/${tenant}/contacts/a%00b`)
        expect(path).toMatchObject({ status: 400, body: { errors: { $: [expect.stringContaining("NUL")] } } })
        expect(yield* contactCount(key, tenant)).toBe(0)
      })
    )

    it.effect("refuses a lone surrogate in any member, nested ones too, and keeps well-formed pairs", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("surrogate")
        const lone = yield* rawText(
          key,
          "PUT",
          `/tenants/${tenant}/settings/cis-details`,
          '{"type":"SoleTrader","title":"\\ud800","firstName":"x\\udc00"}'
        )
        expect(lone).toMatchObject({
          status: 400,
          body: {
            errors: {
              title: ["Must be well-formed Unicode (it has a lone surrogate)"],
              firstName: ["Must be well-formed Unicode (it has a lone surrogate)"]
            }
          }
        })
        const nested = yield* rawText(
          key,
          "POST",
          `/tenants/${tenant}/contacts`,
          '{"name":"n","cisDetails":{"\\ud800":1}}'
        )
        expect(nested).toMatchObject({ status: 400, body: { errors: { "cisDetails.\ud800": [expect.any(String)] } } })
        const pair = yield* rawText(key, "POST", `/tenants/${tenant}/contacts`, '{"name":"Smile \\ud83d\\ude00"}')
        expect(pair).toMatchObject({ status: 201, body: { name: "Smile 😀" } })
      })
    )
  })

  describe("bounds", () => {
    it.effect("answers JSON nested 3,000 deep with a 400, not a stack overflow", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("deep")
        const deep = yield* rawText(key, "POST", `/tenants/${tenant}/contacts`, "[".repeat(3000) + "]".repeat(3000))
        expect(deep.status).toBe(400)
        expect(Object.values(deep.body?.errors ?? {})).toEqual([["Must not nest deeper than 32 levels"]])
      })
    )

    it.effect(
      "screens a body sent without Content-Type, which is read as JSON: 3,000 deep is a 400, not a stack overflow",
      () =>
        Effect.gen(function* () {
          const { key, tenant } = yield* ownerOfNewTenant("untyped")
          const deep = "[".repeat(3000) + "]".repeat(3000)
          const answer = yield* rawBytes(
            `PUT /tenants/${tenant}/settings/email?junk2=true HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Length: ${deep.length}\r\nConnection: close\r\n\r\n${deep}`
          )
          expect(answer).toMatch(/^HTTP\/1.1 400 /)
          expect(answer).toContain("Must not nest deeper than 32 levels")
          const fine = yield* rawBytes(
            `PUT /tenants/${tenant}/settings/email HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Length: 45\r\nConnection: close\r\n\r\n{"signature":null,"autoEmailStatements":true}`
          )
          expect(fine).toMatch(/^HTTP\/1.1 200 /)
        })
    )

    it.effect("refuses a string over the global bound, and a CIS name over its own, storing nothing", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("long")
        const huge = yield* rawText(
          key,
          "POST",
          `/tenants/${tenant}/contacts`,
          JSON.stringify({ name: "n", notes: "x".repeat(10_001) })
        )
        expect(huge).toMatchObject({ status: 400, body: { errors: { notes: ["Must be at most 10000 characters"] } } })
        const title = yield* rawText(
          key,
          "PUT",
          `/tenants/${tenant}/settings/cis-details`,
          JSON.stringify({ type: "SoleTrader", title: "x".repeat(5_000) })
        )
        expect(title).toMatchObject({ status: 400, body: { errors: { title: ["Must be at most 200 characters"] } } })
        expect(yield* contactCount(key, tenant)).toBe(0)
      })
    )
  })

  describe("media types", () => {
    const within = <A, E, R>(request: Effect.Effect<A, E, R>) =>
      Effect.timeoutFail(request, { duration: "5 seconds", onTimeout: () => new Error("no answer within 5 s") })

    it.effect("answers a body of a type the operation does not take with 415 at once, naming the types it takes", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("mediatype")
        const cases: ReadonlyArray<readonly [string, "POST" | "PUT", string, string]> = [
          ["/me/api-keys", "POST", '{"name":"x"}', "application/merge-patch+json"],
          [`/tenants/${tenant}/settings/email`, "PUT", '{"signature":null,"autoEmailStatements":true}', "text/plain"],
          [`/tenants/${tenant}/contacts`, "POST", "name=x", "application/x-www-form-urlencoded"],
          [`/tenants/${tenant}/contacts`, "POST", '{"name":"x"}', "application/jsonx"],
          [`/tenants/${tenant}/contacts/import`, "POST", "--b--", "multipart/mixed; boundary=b"],
          [`/tenants/${tenant}/contacts/import`, "POST", "{}", "application/json"]
        ]
        for (const [path, method, body, contentType] of cases) {
          const answer = yield* within(rawText(key, method, path, body, contentType))
          const takes = path.endsWith("/import") ? "multipart/form-data" : "application/json"
          expect(answer, `${method} ${path} ${contentType}`).toMatchObject({
            status: 415,
            contentType: expect.stringMatching(/^application\/problem\+json/),
            body: { status: 415, detail: expect.stringContaining(`takes a body of type ${takes}`) }
          })
        }
        const hinted = yield* rawBytes(
          `POST /me/api-keys HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/merge-patch+json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"name":"x"}`
        )
        expect(hinted.toLowerCase()).toContain("accept-post: application/json")
        expect(yield* contactCount(key, tenant)).toBe(0)
        const charset = yield* within(
          rawText(key, "POST", `/tenants/${tenant}/contacts`, '{"name":"x"}', "Application/JSON; charset=utf-8")
        )
        expect(charset.status).toBe(201)
      })
    )

    it.effect("answers an HTTP/1.1 request without Host with a 400 problem; HTTP/1.0 needs none", () =>
      Effect.gen(function* () {
        for (const request of [
          "GET /health HTTP/1.1\r\n\r\n",
          "POST /tenants HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"
        ]) {
          const answer = yield* rawBytes(request)
          expect(answer).toMatch(/^HTTP\/1.1 400 /)
          expect(answer.toLowerCase()).toContain("content-type: application/problem+json")
          expect(answer).toContain("must carry a Host header")
        }
        expect(yield* rawBytes("GET /health HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1.1 200 /)
      })
    )
  })

  describe("one answer per request", () => {
    /**
     * Sends `head` (with the first bytes of its body), then, once the server's answer arrives, the
     * rest; answers everything the server sent until it closed the connection.
     */
    const inTwoParts = (head: string, rest: string) =>
      Effect.flatMap(HttpServer.HttpServer, ({ address }) =>
        Effect.async<string>((resume) => {
          const port = address._tag === "TcpAddress" ? address.port : 0
          const socket = Net.connect(port, "127.0.0.1", () => socket.write(head))
          let text = ""
          let sent = false
          const sendRest = () => {
            if (sent) return
            sent = true
            if (socket.writable) socket.write(rest)
          }
          socket.on("data", (data) => {
            text += data.toString()
            sendRest()
          })
          socket.on("error", () => undefined)
          socket.on("close", () => resume(Effect.succeed(text)))
        })
      )

    const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3} /g) ?? []

    it.effect(
      "an answer sent before the body was read closes the connection: a malformed chunk after it gets no second answer",
      () =>
        Effect.gen(function* () {
          const { tenant } = yield* ownerOfNewTenant("early")
          const chunked = "Transfer-Encoding: chunked\r\n"
          const cases: ReadonlyArray<readonly [number, string]> = [
            // No such operation: answered before anything reads the body.
            [404, `POST /no/such/operation HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n${chunked}\r\n`],
            // A type the operation does not take.
            [415, `POST /tenants/${tenant}/contacts HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n${chunked}\r\n`],
            // A read, which takes no body and reads none.
            [200, `GET /health HTTP/1.1\r\nHost: x\r\n${chunked}\r\n`],
            // No credential: refused before the form is read.
            [
              401,
              `POST /tenants/${tenant}/contacts/import HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n${chunked}\r\n`
            ]
          ]
          const malformed = "zz\r\nnot a chunk\r\n0\r\n\r\n"
          for (const [status, head] of cases) {
            // All at once (the parser meets the bad chunk while the answer is being written), and
            // the bad chunk only after the answer arrived.
            for (const [first, rest] of [
              [`${head}5\r\nhello\r\n${malformed}`, ""],
              [`${head}5\r\nhello\r\n`, malformed]
            ] as const) {
              const text = yield* inTwoParts(first, rest)
              const where = `${status}, ${rest === "" ? "all at once" : "bad chunk after the answer"}`
              expect(statusLines(text), where).toEqual([`HTTP/1.1 ${status} `])
              expect(text.toLowerCase(), where).toContain("connection: close")
            }
          }
        })
    )

    it.effect("a body read in full keeps the connection: the request sent after it on it is answered", () =>
      Effect.gen(function* () {
        // A JSON body is read (and screened) before the credential is looked at.
        const text = yield* rawBytes(
          "POST /tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "2\r\n{}\r\n0\r\n\r\n" +
            "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        expect(statusLines(text)).toEqual(["HTTP/1.1 401 ", "HTTP/1.1 200 "])
      })
    )
  })

  describe("oversized bodies", () => {
    /**
     * Sends the head and `body` as fast as the server takes them, and reads only then, as a
     * client that writes its whole request before it looks for an answer does; what came back.
     */
    const sendAllThenRead = (head: string, body: Buffer) =>
      Effect.flatMap(HttpServer.HttpServer, ({ address }) =>
        Effect.async<string>((resume) => {
          const port = address._tag === "TcpAddress" ? address.port : 0
          const socket = Net.connect(port, "127.0.0.1")
          socket.pause()
          let text = ""
          socket.on("connect", () => {
            socket.write(head)
            socket.write(body, () => socket.resume())
          })
          socket.on("data", (data) => (text += data.toString()))
          socket.on("error", () => undefined)
          socket.on("close", () => resume(Effect.succeed(text)))
        })
      )

    it.effect("answers 20 MB of JSON with 413 before closing, chunked or not, signed in or not", () =>
      Effect.gen(function* () {
        const { key } = yield* ownerOfNewTenant("flood")
        const json = Buffer.alloc(20_000_000, " ")
        const chunked = Buffer.concat([
          Buffer.from(`${json.length.toString(16)}\r\n`),
          json,
          Buffer.from("\r\n0\r\n\r\n")
        ])
        for (const credential of [`x-api-key: ${key}\r\n`, ""]) {
          for (const framing of ["Transfer-Encoding: chunked", `Content-Length: ${json.length}`]) {
            const head = `POST /tenants HTTP/1.1\r\nHost: x\r\n${credential}Content-Type: application/json\r\n${framing}\r\n\r\n`
            const text = yield* sendAllThenRead(head, framing.startsWith("Transfer") ? chunked : json)
            const where = `${credential === "" ? "anonymous" : "signed in"}, ${framing}`
            expect(text, where).toMatch(/^HTTP\/1.1 413 /)
            expect(text.toLowerCase(), where).toContain("connection: close")
            expect(text.toLowerCase(), where).toContain("content-type: application/problem+json")
            expect(text, where).toContain('"status":413')
          }
        }
      })
    )
  })

  describe("multipart", () => {
    const head =
      '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n'

    it.effect("answers an empty boundary with a 400", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("boundary")
        const res = yield* rawText(
          key,
          "POST",
          `/tenants/${tenant}/contacts/import`,
          "x",
          "multipart/form-data; boundary="
        )
        expect(res).toMatchObject({ status: 400, body: { detail: expect.stringContaining("boundary") } })
      })
    )

    /** The import's form as it is sent, Content-Length or chunked, on a socket of its own; the answer's status line and body. */
    const sendForm = (key: string, tenant: string, body: string, framing: "length" | "chunked") => {
      const length = Buffer.byteLength(body)
      const framed =
        framing === "length"
          ? `Content-Length: ${length}\r\n\r\n${body}`
          : `Transfer-Encoding: chunked\r\n\r\n${length === 0 ? "" : `${length.toString(16)}\r\n${body}\r\n`}0\r\n\r\n`
      return Effect.timeoutFail(
        rawBytes(
          `POST /tenants/${tenant}/contacts/import HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nConnection: close\r\n` +
            `Content-Type: multipart/form-data; boundary=abc\r\n${framed}`
        ),
        { duration: "5 seconds", onTimeout: () => new Error("no answer within 5 s") }
      )
    }

    it.effect("answers a body cut short, whatever its shape, with a 400 at once, Content-Length or chunked", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("truncated")
        const selections = '--abc\r\nContent-Disposition: form-data; name="selections"\r\n\r\n[{"rowId":1}]\r\n'
        const shapes: Record<string, string> = {
          "in a file": `${head}Name,Email\r\nA,a@ex`,
          "after a file's last line": `${head}Name,Email\r\nA,a@example.com\r\n`,
          "in a part's headers": "--abc\r\nContent-Dispos",
          "after a part's headers, before their blank line": '--abc\r\nContent-Disposition: form-data; name="file"\r\n',
          "right after a boundary line": `${selections}--abc\r\n`,
          "in a boundary": `${head}Name\r\n--ab`,
          "right after a boundary, before its line break": `${head}Name\r\n--abc`,
          // This one hung: the parser took the delimiter for the file's end, then waited for ever.
          "one character into the close delimiter": `${head}Name\r\n--abc-`,
          "after a field, one character into the close delimiter": `${selections}--abc-`,
          "after a field and a file's headers": `${selections}${head}`,
          // "--abc--" that is content, not the close delimiter (no line break before it).
          "after a false close delimiter": `${head}Name,Email--abc--\r\nA,a@example.com\r\n`,
          "before anything": ""
        }
        for (const [shape, body] of Object.entries(shapes)) {
          for (const framing of ["length", "chunked"] as const) {
            const answer = yield* sendForm(key, tenant, body, framing)
            expect(answer, `${shape}, ${framing}`).toMatch(/^HTTP\/1.1 400 /)
            expect(answer, `${shape}, ${framing}`).toContain("could not be read as the multipart form")
          }
        }
        for (const path of ["contacts/import", "contacts/import/analyze"]) {
          const res = yield* rawText(
            key,
            "POST",
            `/tenants/${tenant}/${path}`,
            `${head}Name,Email\r\nA,a@example.com\r\n\r\n--abc-`,
            "multipart/form-data; boundary=abc"
          )
          expect(res, path).toMatchObject({
            status: 400,
            contentType: expect.stringMatching(/^application\/problem\+json/),
            body: { detail: expect.stringContaining("could not be read as the multipart form") }
          })
        }
        // A body that does close, even without a line break after its close delimiter, is read as a form.
        const closed = yield* sendForm(key, tenant, `${head}Name,Email\r\nA,a@example.com\r\n--abc--`, "length")
        expect(closed).toMatch(/^HTTP\/1.1 400 /)
        expect(closed).toContain('"selections":["Required"]')
        expect(yield* contactCount(key, tenant)).toBe(0)
      })
    )
  })
})
