import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Net from "node:net"
import { makeNodeServer, type ServerLimits } from "../src/NodeServer.js"

const limits: ServerLimits = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 200,
  maxConnections: 3
}

/** The server, with `handler` if given, listening on a free port for the test's scope. */
const listening = (handler?: Http.RequestListener) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly server: Http.Server }>((resume) => {
      const server = makeNodeServer(limits)
      if (handler !== undefined) server.on("request", handler)
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ port: (server.address() as AddressInfo).port, server }))
      )
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const answerNoContent: Http.RequestListener = (request, response) => {
  request.resume()
  request.on("end", () => response.writeHead(204).end())
}

/** The server with a handler that answers 204. */
const serve = listening(answerNoContent)

/** Sends raw bytes (then nothing more) and collects what the server sends until it closes, and when. */
const exchange = (port: number, bytes: string | Buffer) =>
  Effect.async<{ readonly text: string; readonly closedAfterMs: number }>((resume) => {
    const started = Date.now()
    const socket = Net.connect(port, "127.0.0.1", () => socket.write(bytes))
    let text = ""
    socket.on("data", (chunk) => (text += chunk.toString("latin1")))
    socket.on("error", () => undefined)
    socket.on("close", () => resume(Effect.succeed({ text, closedAfterMs: Date.now() - started })))
  })

const problemOf = (text: string) => {
  const [head = "", ...rest] = text.split("\r\n\r\n")
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
  const body = JSON.parse(rest.join("\r\n\r\n").slice(0, length)) as Record<string, unknown>
  return { statusLine: head.split("\r\n")[0], head: head.toLowerCase(), body }
}

describe("the Node server", () => {
  it.live("answers 503 with Retry-After until the application takes the requests, then hands each to it alone", () =>
    Effect.gen(function* () {
      const { port, server } = yield* listening()
      const request = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      const early = problemOf((yield* exchange(port, request)).text)
      expect(early.statusLine).toBe("HTTP/1.1 503 Service Unavailable")
      expect(early.head).toContain("retry-after: 1")
      expect(early.head).toContain("content-type: application/problem+json")
      expect(early.body).toMatchObject({ status: 503, title: "Service Unavailable" })

      server.on("request", answerNoContent)
      const ready = yield* exchange(port, request)
      expect(ready.text.split("HTTP/1.1 ").length - 1).toBe(1)
      expect(ready.text).toMatch(/^HTTP\/1\.1 204 /)
    }).pipe(Effect.scoped)
  )

  it.live("answers HTTP its parser refuses with a problem+json body, never a bare status", () =>
    Effect.gen(function* () {
      const { port } = yield* serve
      const cases: ReadonlyArray<readonly [string | Buffer, number]> = [
        [Buffer.from("GET /h\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"), 400],
        [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
        ["GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n folded\r\n\r\n", 400],
        ["POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc", 400],
        ["POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400]
      ]
      for (const [bytes, status] of cases) {
        const { text } = yield* exchange(port, bytes)
        expect(text).not.toContain("HTTP/1.1 204")
        const { body, head, statusLine } = problemOf(text)
        expect(statusLine).toContain(String(status))
        expect(head).toContain("content-type: application/problem+json")
        expect(body).toMatchObject({ status, detail: expect.any(String) })
      }
    }).pipe(Effect.scoped)
  )

  it.live("closes a connection whose headers or body come too slowly, with a 408 problem", () =>
    Effect.gen(function* () {
      const { port } = yield* serve
      const slowHeaders = yield* exchange(port, "GET / HTTP/1.1\r\nHost: x\r\n")
      expect(problemOf(slowHeaders.text)).toMatchObject({ statusLine: expect.stringContaining("408") })
      expect(slowHeaders.closedAfterMs).toBeLessThan(5_000)
      const slowBody = yield* exchange(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
      expect(problemOf(slowBody.text)).toMatchObject({ statusLine: expect.stringContaining("408") })
      expect(slowBody.closedAfterMs).toBeLessThan(5_000)
    }).pipe(Effect.scoped)
  )

  it.live("closes an idle kept-alive connection after the keep-alive time-out", () =>
    Effect.gen(function* () {
      const { port } = yield* serve
      const idle = yield* exchange(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      expect(idle.text).toMatch(/^HTTP\/1.1 204/)
      expect(idle.closedAfterMs).toBeLessThan(2_000)
    }).pipe(Effect.scoped)
  )

  it.live("refuses connections over the cap", () =>
    Effect.gen(function* () {
      const { port, server } = yield* serve
      expect(server.maxConnections).toBe(3)
      const sockets = Array.from({ length: 4 }, () => Net.connect(port, "127.0.0.1"))
      yield* Effect.addFinalizer(() => Effect.sync(() => sockets.forEach((s) => s.destroy())))
      let firstAnswered = false
      sockets[0]!.on("data", () => (firstAnswered = true))
      // The fourth is dropped at once, while the first three wait for their headers time-out.
      const firstOpenWhenLastClosed = yield* Effect.async<boolean>((resume) => {
        const last = sockets[3]!
        last.on("error", () => undefined)
        last.on("close", () => resume(Effect.succeed(!firstAnswered && sockets[0]!.readyState === "open")))
      })
      expect(firstOpenWhenLastClosed).toBe(true)
    }).pipe(Effect.scoped)
  )
})
