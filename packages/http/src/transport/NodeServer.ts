import { Config } from "effect"
import * as Http from "node:http"
import type * as Net from "node:net"
import { capConnections } from "./ConnectionCap.js"
import { lingerOnClose } from "./LingeringClose.js"
import { typeFor } from "../problems/ProblemResponse.js"

/** How long a connection may take over each part of a request, and how many may be open. */
export interface ServerLimits {
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly keepAliveTimeoutMs: number
  readonly maxConnections: number
}

const bounded = (name: string, fallback: number, min: number, max: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be between ${min} and ${max}`, validation: (n) => n >= min && n <= max })
  )

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 2_000
}

export const ServerLimitsConfig: Config.Config<ServerLimits> = Config.all({
  headersTimeoutMs: bounded("HTTP_HEADERS_TIMEOUT_MS", DEFAULT_SERVER_LIMITS.headersTimeoutMs, 100, 300_000),
  requestTimeoutMs: bounded("HTTP_REQUEST_TIMEOUT_MS", DEFAULT_SERVER_LIMITS.requestTimeoutMs, 100, 3_600_000),
  keepAliveTimeoutMs: bounded("HTTP_KEEP_ALIVE_TIMEOUT_MS", DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs, 100, 600_000),
  maxConnections: bounded("HTTP_MAX_CONNECTIONS", DEFAULT_SERVER_LIMITS.maxConnections, 1, 1_000_000)
})

const clientErrorProblem = (code: string | undefined) => {
  if (code === "HPE_HEADER_OVERFLOW") {
    return { status: 431, detail: "The request's headers are larger than the server accepts (16 KiB)." }
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { status: 408, detail: "The request was not received in time. Send it again." }
  }
  return { status: 400, detail: "The request is not valid HTTP/1.1 and could not be read." }
}

/** A problem body for a request the application never sees, with its title. */
const problemOutsideTheApplication = (status: number, detail: string) => {
  const title = Http.STATUS_CODES[status] ?? "Bad Request"
  return { title, text: JSON.stringify({ type: typeFor(status), title, status, detail }) }
}

/** The answer Node is writing on the socket, if any (Node's own handler of parse errors looks at it too). */
const answerOnTheWay = (socket: Net.Socket) =>
  (socket as Net.Socket & { readonly _httpMessage?: Http.ServerResponse | null })._httpMessage ?? undefined

/**
 * A request Node's parser refuses (bad syntax, headers too large, a time-out) never reaches the
 * application: answer it here, as a problem like every other error, and close the connection.
 * A request already answered gets no second answer when the parser then fails on the rest of
 * its body (that answer says `Connection: close`, see UnreadBodyCloses): the connection closes
 * after it, lingering (see LingeringClose), as it does when the server's side has already ended.
 */
const answerClientError = (error: NodeJS.ErrnoException, socket: Net.Socket) => {
  if (error.code === "ECONNRESET" && socket.destroyed) return socket.destroy()
  const answering = answerOnTheWay(socket)
  if (answering?.headersSent === true) {
    if (answering.writableFinished) return socket.destroySoon()
    answering.once("finish", () => socket.destroySoon())
    return
  }
  if (!socket.writable) return socket.destroySoon()
  const { detail, status } = clientErrorProblem(error.code)
  const { text, title } = problemOutsideTheApplication(status, detail)
  socket.write(
    `HTTP/1.1 ${status} ${title}\r\n` +
      "Content-Type: application/problem+json\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      "Connection: close\r\n\r\n" +
      text
  )
  socket.destroySoon()
}

const starting = problemOutsideTheApplication(503, "The server is starting. Send the request again in a moment.").text

/**
 * The server listens before the database and the application are ready (so that it is released
 * last on shutdown), and Node leaves a request nobody listens for unanswered: until the
 * application takes the requests, each is answered 503 with `Retry-After`, which is also what
 * a load balancer's health check should see.
 */
const answerWhileStarting = (server: Http.Server) => {
  const answer = (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    request.resume()
    response.writeHead(503, {
      "content-type": "application/problem+json",
      "content-length": Buffer.byteLength(starting),
      "retry-after": "1",
      connection: "close"
    })
    response.end(starting)
  }
  const handOver = (event: string | symbol, listener: unknown) => {
    if (event !== "request" || listener === answer) return
    server.off("request", answer)
    server.off("newListener", handOver)
  }
  server.on("request", answer)
  server.on("newListener", handOver)
}

/**
 * The Node server with its time-outs and connection cap: headers must arrive within the
 * headers time-out and the whole request within the request time-out (slow senders are cut
 * off), a connection that sends nothing is closed after the headers time-out and an idle
 * kept-alive one after the keep-alive time-out, and at the cap a new connection displaces the
 * oldest one without a request (see ConnectionCap). A connection closed after an answer lingers
 * until the client has had it (see LingeringClose). A request without Host is the
 * application's to answer, as a problem. Until the application listens for requests, they are
 * answered 503.
 */
export const makeNodeServer = (limits: ServerLimits): Http.Server => {
  // Node checks the time-outs only this often.
  const checkEveryMs = Math.min(1_000, Math.ceil(limits.headersTimeoutMs / 2))
  const server = Http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: checkEveryMs,
    requireHostHeader: false
  })
  server.on("connection", (socket: Net.Socket) => lingerOnClose(socket))
  capConnections(server, {
    headersTimeoutMs: limits.headersTimeoutMs,
    maxConnections: limits.maxConnections,
    checkEveryMs
  })
  server.on("clientError", answerClientError)
  answerWhileStarting(server)
  return server
}
