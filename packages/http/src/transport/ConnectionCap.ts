import type * as Http from "node:http"
import type * as Net from "node:net"

/**
 * Keeps connections that never send a request from holding the server. Node times out a
 * request head only once some of it has arrived, so a socket that sends nothing stays open for
 * ever, and `maxConnections` of them lock every client out. Here each connection is followed
 * from its opening to its first request head: one that has sent nothing within
 * `headersTimeoutMs` is closed, and a connection over `maxConnections` makes room by closing
 * the oldest connection that has not sent a request yet (the one that has had longest to send
 * it). A new connection is refused only when every other one has brought a request.
 */
export const capConnections = (
  server: Http.Server,
  limits: { readonly headersTimeoutMs: number; readonly maxConnections: number; readonly checkEveryMs: number }
) => {
  // Opened at, in the order they opened: the first is the oldest.
  const withoutRequest = new Map<Net.Socket, number>()
  let open = 0
  server.on("connection", (socket: Net.Socket) => {
    open++
    withoutRequest.set(socket, Date.now())
    socket.once("close", () => {
      open--
      withoutRequest.delete(socket)
    })
    if (open <= limits.maxConnections) return
    const oldest = withoutRequest.keys().next().value ?? socket
    withoutRequest.delete(oldest)
    oldest.destroy()
  })
  server.on("request", (request: Http.IncomingMessage) => withoutRequest.delete(request.socket as Net.Socket))
  const check = setInterval(() => {
    const deadline = Date.now() - limits.headersTimeoutMs
    for (const [socket, openedAt] of withoutRequest) {
      if (openedAt > deadline) break
      // One that sent part of a head is Node's to time out (with a 408).
      if (socket.bytesRead === 0) socket.destroy()
    }
  }, limits.checkEveryMs).unref()
  server.once("close", () => clearInterval(check))
}
