import { contactListSql } from "@cisbook/adapters/sql/ContactListQuery"
import { type ContactSortField, searchTerms } from "@cisbook/core/contacts/ContactQuery"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Pool } from "pg"

/**
 * The floor to measure against: node:http and a pg pool running the service's own list
 * statement, with no framework, validation, authentication or mapping; and, at /health, node:http
 * alone.
 */
export const startBareServer = async (pool: Pool, tenantId: string): Promise<{ url: string; server: Server }> => {
  const server = createServer((req, res) => {
    if (req.url === "/health") {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ status: "ok" }))
      return
    }
    const params = new URL(req.url ?? "/", "http://bare").searchParams
    const offset = Number(params.get("offset") ?? 0)
    const limit = Math.min(Number(params.get("limit") ?? 10), 50)
    const { text, values } = contactListSql(tenantId, {
      offset,
      limit,
      sortBy: (params.get("sortBy") ?? "Name") as ContactSortField,
      sortDesc: params.get("sortDesc") === "true",
      terms: searchTerms(params.get("search") ?? undefined),
      role: null,
      verificationStatus: null
    })
    pool.query(text, values as Array<unknown>).then(
      ({ rows }) => {
        const totalCount = Number(rows[0]?.totalCount ?? 0)
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({ items: rows.filter((r) => r.id !== null), totalCount, offset, limit }))
      },
      (error) => {
        res.writeHead(500)
        res.end(String(error))
      }
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}
