import type { Json } from "../api/OpenApiPaths.js"

/**
 * The platform cannot declare a response header: every 429 (a rate limit, see AuthenticateLive)
 * says when to try again in Retry-After.
 */
export const withRetryAfter = (spec: Json): Json => {
  for (const operations of Object.values(spec.paths ?? {}) as Array<Json>) {
    for (const operation of Object.values(operations) as Array<Json>) {
      const tooMany = operation?.responses?.["429"]
      if (!tooMany) continue
      tooMany.headers = {
        "Retry-After": {
          description: "Seconds to wait before trying again",
          schema: { type: "integer", minimum: 1, examples: [42] }
        }
      }
    }
  }
  return spec
}
