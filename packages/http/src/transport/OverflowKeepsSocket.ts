import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"

/**
 * Runs the request so that a body read stopped at its size limit leaves the connection open for
 * the 413 answer. The platform's reader destroys the request when it stops, which resets the
 * socket before any answer; here a destroy without an error (that one) turns the reader away and
 * discards the rest of the body as it comes, and the answer is sent with `Connection: close`
 * (the connection then lingers a moment, see LingeringClose: a client that reads only once it has
 * sent everything gets the answer too). A destroy with an error (the client went away, a
 * time-out) goes through as before.
 */
export const overflowKeepsSocket = <E, R>(handle: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    let unread = false
    return Effect.acquireUseRelease(
      Effect.sync(() => {
        const destroy = source.destroy
        source.destroy = function (error?: Error) {
          if (error !== undefined || source.complete) return destroy.call(source, error)
          unread = true
          // The reader's listener would keep every byte that follows.
          source.removeAllListeners("data")
          source.resume()
          return source
        }
        return destroy
      }),
      // The rest of the body is thrown away, so the connection cannot carry another request.
      () =>
        Effect.map(handle, (response) =>
          unread ? HttpServerResponse.setHeader(response, "connection", "close") : response
        ),
      (destroy) =>
        Effect.sync(() => {
          source.destroy = destroy
        })
    )
  })
