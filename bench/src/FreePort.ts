import * as net from "node:net"

/** A port of loopback nothing listens on just now: for a server whose address must be known before it starts. */
export const freePort = () =>
  new Promise<number>((resolvePort, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolvePort(port))
    })
  })
