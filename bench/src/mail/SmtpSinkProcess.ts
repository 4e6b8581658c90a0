import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/**
 * A mail provider's SMTP server, in a process of its own so that it does not share the
 * sender's event loop: it accepts every message and counts them and their Message-IDs. It
 * prints its SMTP port, then its HTTP port; GET /stats on the latter tells what it got.
 */
const ids = new Set<string>()
let received = 0

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  maxClients: 1000,
  onData(stream, _session, callback) {
    let head = ""
    stream.on("data", (chunk: Buffer) => {
      if (head.length < 4096) head += chunk.toString("latin1")
    })
    stream.on("end", () => {
      received++
      const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1]
      if (id !== undefined) ids.add(id)
      callback()
    })
  }
})

const stats = createServer((_, response) => {
  response.writeHead(200, { "content-type": "application/json" })
  response.end(JSON.stringify({ received, unique: ids.size }))
})

smtp.listen(0, "127.0.0.1", () => {
  stats.listen(0, "127.0.0.1", () => {
    const smtpPort = (smtp.server.address() as AddressInfo).port
    const statsPort = (stats.address() as AddressInfo).port
    process.stdout.write(`${smtpPort} ${statsPort}\n`)
  })
})
