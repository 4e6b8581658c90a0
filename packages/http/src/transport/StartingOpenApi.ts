import { type Json, problemJsonContent, retryAfterHeaders } from "../api/OpenApiPaths.js"

/**
 * The server answers every request 503 (with Retry-After) until the application is ready, /health
 * included (see NodeServer's answerWhileStarting).
 */
export const withStartingHealth = (spec: Json): Json => {
  const health = spec.paths?.["/health"]?.get as Json | undefined
  if (health === undefined) return spec
  health.responses["503"] = {
    description: "The server is starting: try again after Retry-After seconds",
    headers: retryAfterHeaders(),
    content: problemJsonContent(
      503,
      "Service Unavailable",
      "The server is starting. Send the request again in a moment."
    )
  }
  return spec
}
