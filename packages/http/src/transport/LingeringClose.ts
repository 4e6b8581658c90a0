import type * as Net from "node:net"

/** How long a connection closed after its answer waits for the client to close its side. */
export const LINGER_MS = 2_000

/**
 * Makes the close that follows a connection's last answer one that cannot lose the answer.
 * Node destroys the socket as soon as the answer is written; when the client is still sending
 * (a body over its limit, or one the server never reads), the kernel answers its next bytes
 * with a reset, and the reset throws away the answer before the client has read it. Here the
 * answer is followed by the end of the server's side only, and the socket is destroyed when the
 * client closes its side or after `lingerMs`, whichever comes first.
 */
export const lingerOnClose = (socket: Net.Socket, lingerMs: number = LINGER_MS) => {
  let lingering = false
  socket.destroySoon = function (this: Net.Socket) {
    if (this.writable) this.end()
    if (this.destroyed || lingering) return
    if (this.readableEnded) {
      this.destroy()
      return
    }
    // Once: a parser failing on each later chunk of an unread body asks again and again.
    lingering = true
    const cut = setTimeout(() => this.destroy(), lingerMs).unref()
    this.once("end", () => this.destroy())
    this.once("close", () => clearTimeout(cut))
  }
}
