import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

/**
 * A customer's webhook receiver, in a process of its own so that it does not share the
 * dispatcher's event loop: it verifies every signature with the standardwebhooks library and
 * answers 204. POST /trust sets the secret; GET /stats tells what it got; POST /reset forgets it.
 */
let verifier: Webhook | null = null
const ids = new Set<string>()
let received = 0
let rejected = 0

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8")
    if (request.url === "/trust") {
      verifier = new Webhook(body)
      return response.writeHead(204).end()
    }
    if (request.url === "/reset") {
      ids.clear()
      received = 0
      rejected = 0
      return response.writeHead(204).end()
    }
    if (request.url === "/stats") {
      response.writeHead(200, { "content-type": "application/json" })
      return response.end(JSON.stringify({ received, rejected, unique: ids.size }))
    }
    received++
    try {
      verifier?.verify(body, request.headers as Record<string, string>)
      ids.add(String(request.headers["webhook-id"]))
      response.writeHead(204).end()
    } catch {
      rejected++
      response.writeHead(400).end("bad signature")
    }
  })
})

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`)
})
