import { randomBytes, timingSafeEqual } from "node:crypto"

/**
 * How the server's own adapters mark their calls to the sandboxes it serves
 * (`/sandbox/gocardless`, `/sandbox/govtalk`), so that those calls are not counted against any
 * client's budget: a bearer token drawn when the process starts and never shown, so no client
 * can send it. The peer's address cannot tell the server from a client on the same machine, nor
 * a call that went out through PUBLIC_BASE_URL's load balancer and came back. It travels in
 * `Authorization` (the sandboxes take any bearer token), which traces and logs redact.
 */
export const OWN_CALL_HEADER = "authorization"

const mark = Buffer.from(`Bearer ${randomBytes(32).toString("base64url")}`)

/** The headers that mark a call as this process's own. */
export const ownCallHeaders: Readonly<Record<string, string>> = { [OWN_CALL_HEADER]: mark.toString() }

/** Whether a request's `Authorization` header carries this process's mark (compared in constant time). */
export const isOwnCall = (header: string | undefined): boolean => {
  if (header === undefined) return false
  const given = Buffer.from(header)
  return given.length === mark.length && timingSafeEqual(given, mark)
}
