import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"

/** Whether the request's framing says a body follows its head (RFC 9112, 6.3): chunked, or a Content-Length above 0. */
const announcesBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["transfer-encoding"] !== undefined || (request.headers["content-length"] ?? "0") !== "0"

const closeWhenUnread: HttpApp.PreResponseHandler = (request, response) =>
  Effect.sync(() =>
    NodeHttpServerRequest.toIncomingMessage(request).complete
      ? response
      : HttpServerResponse.setHeader(response, "connection", "close")
  )

/**
 * Closes the connection after any answer sent before the request's body was read to its end
 * (an operation that does not exist, a type the operation does not take, a refused credential,
 * a read that ignores a body...), whoever answers it: the application or its error handling.
 * Node would keep such a connection open and read the rest of the body as it came, so a
 * malformed rest got a second, unrequested 400 on the same connection; with `Connection: close`
 * the server's side ends after the answer (and lingers, see LingeringClose), and NodeServer
 * answers no parse error after an answer. A request without a body costs nothing here.
 */
export const closeUnlessBodyRead = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    announcesBody(request) ? Effect.zipRight(HttpApp.appendPreResponseHandler(closeWhenUnread), app) : app
  )
