import { HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Net from "node:net"
import { e2e, raw, rawText, SqlTestPorts, tenantOwner } from "./E2E.js"

const contactCount = (key: string, tenant: string) =>
  Effect.map(raw(key, "GET", `/tenants/${tenant}/contacts`), (res) => res.body?.totalCount as number)

layer(e2e(SqlTestPorts), { timeout: "120 seconds" })("malformed input", (it) => {
  describe("text no store can hold", () => {
    it.effect("refuses a NUL character in a body member or a query parameter with a 400 naming it", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* tenantOwner("nul")
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
        const { key, tenant } = yield* tenantOwner("surrogate")
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
        const { key, tenant } = yield* tenantOwner("deep")
        const deep = yield* rawText(key, "POST", `/tenants/${tenant}/contacts`, "[".repeat(3000) + "]".repeat(3000))
        expect(deep.status).toBe(400)
        expect(Object.values(deep.body?.errors ?? {})).toEqual([["Must not nest deeper than 32 levels"]])
      })
    )

    it.effect("refuses a string over the global bound, and a CIS name over its own, storing nothing", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* tenantOwner("long")
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

  describe("oversized bodies", () => {
    /** Streams `total` bytes after the head, stopping when the server closes; answers what came back. */
    const flood = (head: string, chunk: (bytes: Buffer) => Buffer, total = 8 * 1024 * 1024) =>
      Effect.flatMap(HttpServer.HttpServer, ({ address }) =>
        Effect.async<{ readonly text: string; readonly sentBytes: number }>((resume) => {
          const port = address._tag === "TcpAddress" ? address.port : 0
          const socket = Net.connect(port, "127.0.0.1")
          let text = ""
          let sentBytes = 0
          const block = Buffer.alloc(64 * 1024, "a")
          const pump = () => {
            while (sentBytes < total && !socket.destroyed) {
              sentBytes += block.length
              if (!socket.write(chunk(block))) return socket.once("drain", pump)
            }
          }
          socket.on("connect", () => {
            socket.write(head)
            pump()
          })
          socket.on("data", (data) => (text += data.toString()))
          socket.on("error", () => undefined)
          socket.on("close", () => resume(Effect.succeed({ text, sentBytes })))
        })
      )

    it.effect("answers a chunked JSON body over the limit with 413, not a reset, and reads no further", () =>
      Effect.gen(function* () {
        const { key } = yield* tenantOwner("chunked")
        const head = `POST /tenants HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
        const chunked = yield* flood(head, (block) =>
          Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from("\r\n")])
        )
        expect(chunked.text).toMatch(/^HTTP\/1.1 413/)
        expect(chunked.text.toLowerCase()).toContain("connection: close")
        expect(chunked.sentBytes).toBeLessThan(8 * 1024 * 1024)
        const declared = yield* flood(
          `POST /tenants HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`,
          (block) => block
        )
        expect(declared.text).toMatch(/^HTTP\/1.1 413/)
        expect(declared.sentBytes).toBeLessThan(8 * 1024 * 1024)
      })
    )

    it.effect("answers 50 MB sent at full speed with 413 before closing, chunked or not, signed in or not", () =>
      Effect.gen(function* () {
        const { key } = yield* tenantOwner("flood")
        const chunk = (block: Buffer) =>
          Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from("\r\n")])
        for (const credential of [`x-api-key: ${key}\r\n`, ""]) {
          for (const framing of ["Transfer-Encoding: chunked", "Content-Length: 50000000"]) {
            const head = `POST /tenants HTTP/1.1\r\nHost: x\r\n${credential}Content-Type: application/json\r\n${framing}\r\n\r\n`
            const { text } = yield* flood(head, framing.startsWith("Transfer") ? chunk : (block) => block, 50_000_000)
            expect(text, `${credential === "" ? "anonymous" : "signed in"}, ${framing}`).toMatch(/^HTTP\/1.1 413 /)
            expect(text).toContain('"status":413')
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
        const { key, tenant } = yield* tenantOwner("boundary")
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

    it.effect("answers a body cut short, in a file or in a part's headers, with a 400 at once", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* tenantOwner("truncated")
        for (const body of [`${head}Name,Email\r\nA,a@example.com\r\n`, "--abc\r\nContent-Dispos"]) {
          for (const path of ["contacts/import", "contacts/import/analyze"]) {
            const res = yield* rawText(
              key,
              "POST",
              `/tenants/${tenant}/${path}`,
              body,
              "multipart/form-data; boundary=abc"
            )
            expect(res).toMatchObject({
              status: 400,
              contentType: expect.stringMatching(/^application\/problem\+json/),
              body: { detail: expect.stringContaining("could not be read as the multipart form") }
            })
          }
        }
        expect(yield* contactCount(key, tenant)).toBe(0)
      })
    )
  })
})
