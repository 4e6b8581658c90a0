import { Config } from "effect"
import * as Http from "node:http"
import type { Duplex } from "node:stream"
import { typeFor } from "./Problems.js"

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

/**
 * A request Node's parser refuses (bad syntax, headers too large, a time-out) never reaches the
 * application: answer it here, as a problem like every other error, and close the connection.
 */
const answerClientError = (error: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable || (error.code === "ECONNRESET" && socket.destroyed)) return socket.destroy()
  const { detail, status } = clientErrorProblem(error.code)
  const { text, title } = problemOutsideTheApplication(status, detail)
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\n` +
      "Content-Type: application/problem+json\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      "Connection: close\r\n\r\n" +
      text
  )
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
 * off), an idle kept-alive connection is closed after the keep-alive time-out. Until the
 * application listens for requests, they are answered 503.
 */
export const makeNodeServer = (limits: ServerLimits): Http.Server => {
  const server = Http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the two time-outs above only this often.
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(limits.headersTimeoutMs / 2))
  })
  server.maxConnections = limits.maxConnections
  server.on("clientError", answerClientError)
  answerWhileStarting(server)
  return server
}
