import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Net from "node:net"
import { LINGER_MS } from "../src/transport/LingeringClose.js"
import { makeNodeServer, type ServerLimits } from "../src/transport/NodeServer.js"

const limits: ServerLimits = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 200,
  maxConnections: 3
}

/** The server, with `handler` if given, listening on a free port for the test's scope. */
const listening = (handler?: Http.RequestListener, serverLimits: ServerLimits = limits) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly server: Http.Server }>((resume) => {
      const server = makeNodeServer(serverLimits)
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

/** A connected socket of the test's, and when the server closed it and what it sent before. */
interface Connection {
  readonly socket: Net.Socket
  /** Taken before connecting: the server opened the connection no earlier. */
  readonly connectingAt: number
  readonly closedByServer: Promise<{ readonly at: number; readonly received: string }>
}

/**
 * `count` connected sockets that send nothing, connected one after another (the server opens
 * them in that order), destroyed when the test's scope ends. A socket that fails to connect fails
 * the test. Each reads what the server sends, without which a socket sent an answer never sees
 * the server's end. Nothing here closes a socket before the scope ends, so a close seen is the
 * server's.
 */
const openConnections = (port: number, count: number) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      Promise.all(
        Array.from(
          { length: count },
          () =>
            new Promise<Connection>((resolve, reject) => {
              const connectingAt = Date.now()
              const socket = Net.connect(port, "127.0.0.1", () => resolve({ socket, connectingAt, closedByServer }))
              let received = ""
              socket.on("data", (chunk) => (received += chunk.toString("latin1")))
              const closedByServer = new Promise<{ at: number; received: string }>((settle) => {
                socket.once("end", () => settle({ at: Date.now(), received }))
                socket.once("close", () => settle({ at: Date.now(), received }))
              })
              socket.on("error", (error) => (socket.connecting ? reject(error) : undefined))
            })
        )
      )
    ),
    (connections) => Effect.sync(() => connections.forEach(({ socket }) => socket.destroy()))
  )

const closed = (socket: Net.Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())))

/**
 * Sends the head and `bodyBytes` as fast as the server takes them, and reads only then, as a
 * client that writes its request before it looks for an answer does; what came back.
 */
const sendAllThenRead = (port: number, head: string, bodyBytes: number) =>
  Effect.async<{ readonly text: string }>((resume) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.pause()
    let text = ""
    socket.on("connect", () => {
      socket.write(head)
      socket.write(Buffer.alloc(bodyBytes, "a"), () => socket.resume())
    })
    socket.on("data", (data) => (text += data.toString("latin1")))
    socket.on("error", () => undefined)
    socket.on("close", () => resume(Effect.succeed({ text })))
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

  // Real time: the time-outs are the server's own timers (Node's and ConnectionCap's) over real
  // sockets, which Effect's TestClock does not drive. A loaded machine only makes them close later.
  it.live("closes connections that send nothing once the headers time-out has passed, not before", () =>
    Effect.gen(function* () {
      const { port } = yield* serve
      const idle = yield* openConnections(port, limits.maxConnections)
      for (const { closedByServer, connectingAt } of idle) {
        const { at, received } = yield* Effect.promise(() => closedByServer)
        expect(at - connectingAt).toBeGreaterThanOrEqual(limits.headersTimeoutMs)
        // Whichever checks first: ConnectionCap closes it saying nothing, Node's headers time-out with a 408.
        if (received !== "") expect(problemOf(received).statusLine).toContain("408")
      }
    }).pipe(Effect.scoped)
  )

  it.live("at the cap, the oldest connections that sent nothing make room, and a request is still answered", () =>
    Effect.gen(function* () {
      // A headers time-out no test outlives: every connection closed here was closed to make room.
      const { port } = yield* listening(answerNoContent, {
        ...limits,
        headersTimeoutMs: 600_000,
        requestTimeoutMs: 600_000,
        maxConnections: 50
      })
      const idle = yield* openConnections(port, 80)
      /** The index of the first of `idle` from `from` on that the server closes. */
      const firstClosed = (from: number) =>
        Effect.promise(() =>
          Promise.race(idle.slice(from).map(({ closedByServer }, i) => closedByServer.then(() => from + i)))
        )
      const oldest = Effect.promise(() => Promise.all(idle.slice(0, 30).map(({ closedByServer }) => closedByServer)))
      expect(yield* Effect.raceFirst(Effect.as(oldest, "the oldest 30"), firstClosed(30))).toBe("the oldest 30")
      // More than the cap sent nothing: a request from elsewhere is still answered, and its
      // connection displaces the oldest left.
      const health = yield* exchange(port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      expect(health.text).toMatch(/^HTTP\/1.1 204 /)
      expect(yield* firstClosed(30)).toBe(30)
      expect(idle.slice(31).every(({ socket }) => socket.readyState === "open")).toBe(true)
    }).pipe(Effect.scoped)
  )

  it.live("refuses a connection over the cap only when every open one has brought a request", () =>
    Effect.gen(function* () {
      const { port } = yield* listening(() => undefined)
      const busy = yield* openConnections(port, 3)
      for (const { socket } of busy) socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx")
      yield* Effect.sleep("100 millis")
      const [extra] = yield* openConnections(port, 1)
      yield* Effect.promise(() => extra!.closedByServer)
      expect(busy.every(({ socket }) => socket.readyState === "open")).toBe(true)
    }).pipe(Effect.scoped)
  )

  it.live(
    "lets a client that reads only once it has sent its whole body have the answer that closed the connection",
    () =>
      Effect.gen(function* () {
        // Stops taking the body after 1 MiB, throws the rest away and answers, as the 413 of a body over its limit does.
        const { port } = yield* listening((request, response) => {
          let read = 0
          request.on("data", (chunk: Buffer) => {
            read += chunk.length
            if (read < 1024 * 1024) return
            request.removeAllListeners("data")
            request.resume()
            response.writeHead(413, { connection: "close", "content-length": "2" }).end("no")
          })
        })
        const { text } = yield* sendAllThenRead(
          port,
          "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 20000000\r\n\r\n",
          20_000_000
        )
        expect(text).toMatch(/^HTTP\/1.1 413 /)
        expect(text).toMatch(/\r\n\r\nno$/)
      }).pipe(Effect.scoped)
  )

  it.live("answers no parse error of a body that its request's answer, already under way, did not wait for", () =>
    Effect.gen(function* () {
      // Answers at once without reading the body, in two parts: the second once the parser has
      // failed on the body, so that the parse error meets an answer under way.
      const { port, server } = yield* listening(undefined, { ...limits, requestTimeoutMs: 10_000 })
      server.on("request", (_request: Http.IncomingMessage, response: Http.ServerResponse) => {
        response.writeHead(200, { connection: "close", "content-length": "10" }).write("hello")
        server.once("clientError", () => response.end("world"))
      })
      const { text } = yield* exchange(
        port,
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n"
      )
      // Not a 400 written into the middle of the answer: one answer, whole.
      expect(text.match(/HTTP\/1\.1 \d{3} /g)).toEqual(["HTTP/1.1 200 "])
      expect(text).toMatch(/\r\n\r\nhelloworld$/)
    }).pipe(Effect.scoped)
  )

  it.live("closes a connection whose client goes on sending after its closing answer, after the linger", () =>
    Effect.gen(function* () {
      const { port } = yield* listening(
        (request, response) => {
          request.resume()
          response.writeHead(413, { connection: "close", "content-length": "0" }).end()
        },
        { ...limits, requestTimeoutMs: 10_000 }
      )
      const started = Date.now()
      const socket = Net.connect(port, "127.0.0.1", () =>
        socket.write("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
      )
      socket.on("error", () => undefined)
      const sending = setInterval(() => socket.write("1\r\na\r\n"), 10)
      yield* Effect.addFinalizer(() => Effect.sync(() => clearInterval(sending)))
      yield* Effect.promise(() => closed(socket))
      const after = Date.now() - started
      expect(after).toBeGreaterThanOrEqual(LINGER_MS - 100)
      expect(after).toBeLessThan(LINGER_MS + 1_500)
    }).pipe(Effect.scoped)
  )
})
