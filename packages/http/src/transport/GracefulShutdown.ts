import { Effect, Layer } from "effect"
import type * as Http from "node:http"
import { ShuttingDown } from "./ShuttingDown.js"

/** How long requests in flight at shutdown may take to finish before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000

/**
 * Shuts the server down gracefully when the layer's scope closes (SIGTERM, SIGINT): it stops
 * accepting connections, closes idle ones, answers the requests in flight (and any that arrive
 * on their connections meanwhile) with `Connection: close`, and waits for them, at most
 * `graceMs`; then it cuts what is left. Built after the application and released before it, so
 * the handlers, workers and database are all still there while the requests finish. From the
 * first moment of it, /health/ready answers 503.
 */
export const gracefulShutdown = (server: Http.Server, graceMs: number = SHUTDOWN_GRACE_MS) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const shuttingDown = yield* ShuttingDown
      const unanswered = new Set<Http.ServerResponse>()
      let draining = false
      const track = (_request: Http.IncomingMessage, response: Http.ServerResponse) => {
        if (draining) response.shouldKeepAlive = false
        unanswered.add(response)
        response.once("close", () => unanswered.delete(response))
      }
      server.prependListener("request", track)
      const closed = Effect.async<void>((resume) => {
        const cut = setTimeout(() => server.closeAllConnections(), graceMs)
        server.close(() => {
          clearTimeout(cut)
          resume(Effect.void)
        })
        server.closeIdleConnections()
      })
      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          if (!server.listening) return
          shuttingDown.begin()
          draining = true
          for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false
          yield* Effect.logInfo(`Shutting down: no new connections; answering ${unanswered.size} requests in flight`)
          yield* closed
          server.off("request", track)
          yield* Effect.logInfo("HTTP server closed")
        })
      )
    })
  )
