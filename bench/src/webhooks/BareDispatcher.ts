import { createHmac, randomUUID } from "node:crypto"
import * as http from "node:http"
import type { Pool } from "pg"

/**
 * The service's claim statement (packages/adapters/src/sql/LeaseClaim.ts as DeliveryRepoSql
 * configures it), written out: up to $3 due deliveries leased until $2 with token $4.
 */
const CLAIM = `
  WITH due AS (
    SELECT d.tenant_id, d.id FROM webhook_deliveries d
    JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id
    WHERE (coalesce(d.retry_requested_at, d.next_attempt_at) <= $1 AND w.enabled)
      AND (d.leased_until IS NULL OR d.leased_until <= $1)
    ORDER BY coalesce(d.retry_requested_at, d.next_attempt_at)
    LIMIT $3
    FOR UPDATE OF d SKIP LOCKED
  )
  , leased AS (
    UPDATE webhook_deliveries d SET lease_token = $4, leased_until = $2
    FROM due
    WHERE d.tenant_id = due.tenant_id AND d.id = due.id
    RETURNING d.*
  )
  SELECT d.tenant_id, d.id, d.event_id, d.event_type, e.data AS event_data, e.occurred_at,
    w.id AS webhook_id, w.url, w.failing_since, w.secret,
    CASE WHEN w.previous_secret_until > $1 THEN w.previous_secret END AS previous_secret,
    d.status, d.attempts, d.automatic_attempts, d.next_attempt_at, d.retry_requested_at
  FROM leased d, events e, webhooks w
  WHERE e.tenant_id = d.tenant_id AND e.id = d.event_id AND w.tenant_id = d.tenant_id AND w.id = d.webhook_id`

/** The service's record statement (DeliveryRepoSql's recordAll), the attempts as a JSON array of rows. */
const RECORD = `
  WITH v AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(
      tenant_id uuid, id uuid, lease_token uuid, status text, attempts integer, automatic_attempts integer,
      next_attempt_at timestamptz, retry_requested_at timestamptz,
      at timestamptz, response_status integer, response_body text, duration_ms integer, error text)
  ),
  updated AS (
    UPDATE webhook_deliveries d SET
      status = v.status,
      attempts = v.attempts,
      automatic_attempts = v.automatic_attempts,
      next_attempt_at = v.next_attempt_at,
      retry_requested_at = v.retry_requested_at,
      lease_token = NULL, leased_until = NULL
    FROM v
    WHERE d.tenant_id = v.tenant_id AND d.id = v.id AND d.lease_token = v.lease_token
    RETURNING d.tenant_id, d.id
  )
  INSERT INTO webhook_delivery_attempts
    (tenant_id, delivery_id, attempt, at, response_status, response_body, duration_ms, error)
  SELECT v.tenant_id, v.id, v.attempts, v.at, v.response_status, v.response_body, v.duration_ms, v.error
  FROM updated JOIN v ON v.tenant_id = updated.tenant_id AND v.id = updated.id
  RETURNING tenant_id, delivery_id`

interface Claimed {
  readonly tenant_id: string
  readonly id: string
  readonly event_id: string
  readonly event_type: string
  readonly event_data: unknown
  readonly occurred_at: Date | string
  readonly webhook_id: string
  readonly url: string
  readonly secret: string
  readonly previous_secret: string | null
  readonly attempts: number
  readonly automatic_attempts: number
}

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
const sign = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${timestamp}.${body}`)
    .digest("base64")}`

const post = (agent: http.Agent, url: URL, headers: Record<string, string>, body: string) =>
  new Promise<{ status: number | null; body: string | null; error: string | null }>((resolve) => {
    const request = http.request(
      { method: "POST", host: url.hostname, port: url.port, path: url.pathname, agent, headers },
      (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, error: null }))
      }
    )
    request.on("error", (error) => resolve({ status: null, body: null, error: error.message }))
    request.end(body)
  })

/** One delivery: signed, posted, and its attempt and schedule as a row of the record statement. */
const attempt = async (agent: http.Agent, leaseToken: string, row: Claimed) => {
  const at = new Date()
  const data = typeof row.event_data === "string" ? JSON.parse(row.event_data) : row.event_data
  const body = JSON.stringify({ type: row.event_type, timestamp: new Date(row.occurred_at).toISOString(), data })
  const timestamp = Math.floor(at.getTime() / 1000)
  const secrets = row.previous_secret === null ? [row.secret] : [row.secret, row.previous_secret]
  const answer = await post(
    agent,
    new URL(row.url),
    {
      "content-type": "application/json",
      "user-agent": "cisbook-webhooks/1",
      "webhook-id": row.event_id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": secrets.map((s) => sign(s, row.event_id, timestamp, body)).join(" "),
      "content-length": String(Buffer.byteLength(body))
    },
    body
  )
  const succeeded = answer.status !== null && answer.status >= 200 && answer.status < 300
  return {
    tenant_id: row.tenant_id,
    id: row.id,
    lease_token: leaseToken,
    status: succeeded ? "Succeeded" : "Failed",
    attempts: row.attempts + 1,
    automatic_attempts: succeeded ? row.automatic_attempts : row.automatic_attempts + 1,
    next_attempt_at: null,
    retry_requested_at: null,
    at,
    response_status: answer.status,
    response_body: answer.body,
    duration_ms: Date.now() - at.getTime(),
    error: answer.error,
    webhook_id: row.webhook_id,
    succeeded
  }
}

/**
 * The floor to measure the dispatcher against: the same claim, signing, POST and record as the
 * service, written with node:http, node:crypto and pg and nothing else (no retry schedule beyond
 * success, no address checks, no framework). Claims `limit` at a time, posts them all at once,
 * records them in one transaction with the endpoint's health; stops when nothing is due.
 */
export const runBareDispatcher = async (pool: Pool, limit: number, leaseMillis: number): Promise<number> => {
  const agent = new http.Agent({ keepAlive: true })
  let delivered = 0
  try {
    for (;;) {
      const now = new Date()
      const token = randomUUID()
      const claimed = await pool.query<Claimed>(CLAIM, [now, new Date(now.getTime() + leaseMillis), limit, token])
      if (claimed.rows.length === 0) return delivered
      const attempts = await Promise.all(claimed.rows.map((row) => attempt(agent, token, row)))
      const client = await pool.connect()
      try {
        await client.query("BEGIN")
        await client.query(RECORD, [JSON.stringify(attempts)])
        for (const webhook of new Set(
          attempts.filter((a) => a.succeeded).map((a) => `${a.tenant_id}/${a.webhook_id}`)
        )) {
          const [tenantId, webhookId] = webhook.split("/")
          await client.query("UPDATE webhooks SET failing_since = NULL WHERE tenant_id = $1 AND id = $2", [
            tenantId,
            webhookId
          ])
        }
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK")
        throw error
      } finally {
        client.release()
      }
      delivered += attempts.length
    }
  } finally {
    agent.destroy()
  }
}
