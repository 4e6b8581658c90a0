import { MAX_KEY_LENGTH } from "@cisbook/core/idempotency/RetryWindow"
import { NOT_KEPT } from "./IdempotencyMiddleware.js"
import { type Json, operationsOf } from "../api/OpenApiPaths.js"
import { GOCARDLESS_NOTIFICATIONS_PATH } from "../api/ProviderEventsApi.js"

// What the idempotency middleware (IdempotencyMiddleware) does, in the OpenAPI document.

const takesMultipart = (operation: Json) => operation.requestBody?.content?.["multipart/form-data"] !== undefined

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes the request safe to retry. The first request with a key is done and its answer kept for 24 hours; a retry with the same key, method, path and body gets that answer again (with the header Idempotent-Replayed: true) without doing the work twice. The same key with a different request, or while the first is still being processed, is refused with 409. Keys belong to the caller (another user's key never matches); 5xx answers and refusals before any work (400, 401, 403, 413) are not kept, so a retry is done afresh. Use a new random value (a UUID) per operation.",
  schema: { type: "string", minLength: 1, maxLength: MAX_KEY_LENGTH },
  example: "5f0c3b7e-6a1d-4f8e-9d2a-1b2c3d4e5f60"
}

const CONFLICT_REF = "#/components/schemas/ConflictProblem"

/**
 * Every POST that does something takes an Idempotency-Key (every JSON POST through the
 * idempotency middleware; the contact import, an upload, in its endpoint), and may answer 409
 * for a key reused for another request or still in progress. The analysis of an import file
 * only reads it: a retry of it is harmless without a key.
 */
export const withIdempotencyKeys = (spec: Json): Json => {
  for (const [path, operations] of Object.entries(spec.paths ?? {}) as Array<[string, Json]>) {
    const post = operations.post as Json | undefined
    // GoCardless sends no key: its webhook is deduplicated on the event ids instead.
    if (
      post === undefined ||
      (takesMultipart(post) && path.endsWith("/analyze")) ||
      path === GOCARDLESS_NOTIFICATIONS_PATH
    ) {
      continue
    }
    post.parameters = [...(post.parameters ?? []), idempotencyKeyParameter]
    post.responses ??= {}
    post.responses["409"] ??= {
      description: "Conflict",
      content: { "application/problem+json": { schema: { $ref: CONFLICT_REF } } }
    }
  }
  return spec
}

const idempotentReplayed = {
  description: "true on an answer given again to a retry with the same Idempotency-Key (the work was not done again)",
  schema: { type: "string", enum: ["true"] }
}

/**
 * An answer a retry with the same Idempotency-Key may get again says so in Idempotent-Replayed:
 * every answer below 500 but those the middleware does not keep (NOT_KEPT).
 */
export const withIdempotentReplayed = (spec: Json): Json => {
  for (const [, , operation] of operationsOf(spec)) {
    const takesKey = (operation.parameters ?? []).some((p: Json) => p.name === idempotencyKeyParameter.name)
    if (!takesKey) continue
    for (const [status, answer] of Object.entries(operation.responses ?? {}) as Array<[string, Json]>) {
      if (!/^[1-4]\d\d$/.test(status) || NOT_KEPT.has(Number(status))) continue
      answer.headers = { ...answer.headers, "Idempotent-Replayed": idempotentReplayed }
    }
  }
  return spec
}
