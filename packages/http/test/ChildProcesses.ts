import type { ChildProcess } from "node:child_process"
import * as net from "node:net"

/** A port of loopback nothing listens on just now (the server refuses PORT=0). */
export const freePort = () =>
  new Promise<number>((resolvePromise) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolvePromise(port))
    })
  })

/** How the process ended, once it has; rejects if it has not within `ms`. */
export const exitOf = (child: ChildProcess, ms: number) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return resolvePromise({ code: child.exitCode, signal: child.signalCode })
    }
    const timer = setTimeout(() => reject(new Error(`The server did not exit within ${ms} ms`)), ms)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      resolvePromise({ code, signal })
    })
  })
