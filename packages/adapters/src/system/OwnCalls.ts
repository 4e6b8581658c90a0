import { randomBytes, timingSafeEqual } from "node:crypto"

/**
 * The header with which the server's own adapters mark their calls to the sandboxes it serves
 * (`/sandbox/gocardless`, `/sandbox/govtalk`), so that those calls are not counted against any
 * client's budget. Its value is a secret drawn when the process starts and never shown, so no
 * client can send it: the peer's address cannot tell the server from a client on the same
 * machine, nor a call that went out through PUBLIC_BASE_URL's load balancer and came back.
 */
export const OWN_CALL_HEADER = "cisbook-own-call"

const secret = Buffer.from(randomBytes(32).toString("base64url"))

/** The headers that mark a call as this process's own. */
export const ownCallHeaders: Readonly<Record<string, string>> = { [OWN_CALL_HEADER]: secret.toString() }

/** Whether a request's `cisbook-own-call` header carries this process's secret (compared in constant time). */
export const isOwnCall = (header: string | undefined): boolean => {
  if (header === undefined) return false
  const given = Buffer.from(header)
  return given.length === secret.length && timingSafeEqual(given, secret)
}
