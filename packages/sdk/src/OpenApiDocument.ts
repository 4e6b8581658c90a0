import { OpenApiJsonSchema } from "@effect/platform"
import { eventPayloads } from "./EventPayloads.js"

type Json = Record<string, any>

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"
const VALIDATION_REF = "#/components/schemas/ValidationProblem"

const unwrap = (schema: Json): Json => (schema.allOf?.length === 1 ? schema.allOf[0] : schema)

const schemasOf = (content: Json | undefined): Array<Json> => {
  const all = Object.values(content ?? {}).flatMap(
    (media: Json) => (media.schema?.anyOf as Array<Json> | undefined) ?? [media.schema]
  )
  const refs = new Set<string>()
  return all.map(unwrap).filter((s) => s.$ref === undefined || (!refs.has(s.$ref) && refs.add(s.$ref)))
}

/** A parameter that any string satisfies (a code or id in a path) cannot make a request invalid. */
const canBeInvalid = (parameter: Json) =>
  !(parameter.schema?.type === "string" && Object.keys(parameter.schema).length === 1)

const takesInput = (operation: Json) =>
  (operation.parameters ?? []).some(canBeInvalid) || operation.requestBody !== undefined

/**
 * The platform describes request decode failures with its own schema; this service answers
 * them with a validation problem instead (see the http problem middleware), so the document
 * says so, and every 400 is `application/problem+json`.
 */
export const withValidationProblems = (spec: Json): Json => {
  for (const operations of Object.values(spec.paths ?? {}) as Array<Json>) {
    for (const operation of Object.values(operations) as Array<Json>) {
      const badRequest = operation?.responses?.["400"]
      if (!badRequest) continue
      const schemas = schemasOf(badRequest.content).filter((s) => s.$ref !== DECODE_ERROR_REF)
      if (schemas.length === 0 && !takesInput(operation)) {
        delete operation.responses["400"]
        continue
      }
      if (!schemas.some((s) => s.$ref === VALIDATION_REF)) schemas.unshift({ $ref: VALIDATION_REF })
      badRequest.description = "Invalid request: a validation problem naming each invalid member, or a refusal"
      badRequest.content = {
        "application/problem+json": { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } }
      }
    }
  }
  const components = spec.components?.schemas as Json | undefined
  if (components) {
    delete components.HttpApiDecodeError
    delete components.Issue
    delete components.PropertyKey
  }
  return spec
}

const header = (name: string, description: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" }
})

const deliveryHeaders = [
  header("webhook-id", "The event's id: the same on every attempt of a delivery, so a receiver can drop repeats"),
  header("webhook-timestamp", "This attempt's time, in Unix seconds; refuse one far from your clock"),
  header(
    "webhook-signature",
    'Space-separated "v1,<base64 HMAC-SHA256 of id.timestamp.body>" signatures, keyed with the webhook secret (base64 after whsec_)'
  )
]

/**
 * The events the service delivers, as OpenAPI 3.1 `webhooks` (the platform's generator has no
 * such section): one POST per kind, with the Standard Webhooks headers and the body
 * `{ type, timestamp, data }`, `data` described by its schema in components.
 */
export const withWebhooks = (spec: Json): Json => {
  const defs: Record<string, any> = {}
  spec.webhooks = Object.fromEntries(
    Object.entries(eventPayloads).map(([type, { data, summary }]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary,
          description:
            "Delivered at least once: a delivery that fails (no 2xx within 15 s; redirects are not followed) is tried again 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure.",
          parameters: deliveryHeaders,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "timestamp", "data"],
                  properties: {
                    type: { type: "string", enum: [type] },
                    timestamp: { type: "string", format: "date-time", description: "When the event happened" },
                    data: OpenApiJsonSchema.makeWithDefs(data, { defs })
                  },
                  additionalProperties: false
                }
              }
            }
          },
          responses: { "2XX": { description: "Received. Any other answer is a failed attempt." } }
        }
      }
    ])
  )
  spec.components = { ...spec.components, schemas: { ...defs, ...spec.components?.schemas } }
  return spec
}

const takesMultipart = (operation: Json) => operation.requestBody?.content?.["multipart/form-data"] !== undefined

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes the request safe to retry. The first request with a key is done and its answer kept for 24 hours; a retry with the same key, method, path and body gets that answer again (with the header Idempotent-Replayed: true) without doing the work twice. The same key with a different request, or while the first is still being processed, is refused with 409. Keys belong to the caller (another user's key never matches); 5xx answers and refusals before any work (400, 401, 403, 413) are not kept, so a retry is done afresh. Use a new random value (a UUID) per operation.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
  example: "5f0c3b7e-6a1d-4f8e-9d2a-1b2c3d4e5f60"
}

const CONFLICT_REF = "#/components/schemas/ConflictProblem"

export const GOCARDLESS_WEBHOOK_PATH = "/webhooks/gocardless"

/**
 * Every POST that does something takes an Idempotency-Key (every JSON POST through the http
 * idempotency middleware; the contact import, an upload, in its endpoint), and may answer 409
 * for a key reused for another request or still in progress. The analysis of an import file
 * only reads it: a retry of it is harmless without a key.
 */
export const withIdempotencyKeys = (spec: Json): Json => {
  for (const [path, operations] of Object.entries(spec.paths ?? {}) as Array<[string, Json]>) {
    const post = operations.post as Json | undefined
    // GoCardless sends no key: its webhook is deduplicated on the event ids instead.
    if (post === undefined || (takesMultipart(post) && path.endsWith("/analyze")) || path === GOCARDLESS_WEBHOOK_PATH) {
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

/** The platform cannot declare a response header: every 429 says when to try again in Retry-After. */
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

const operationsOf = (spec: Json): ReadonlyArray<readonly [path: string, method: string, operation: Json]> =>
  (Object.entries(spec.paths ?? {}) as Array<[string, Json]>).flatMap(([path, item]) =>
    (Object.entries(item) as Array<[string, Json]>).map(([method, operation]) => [path, method, operation] as const)
  )

const CONTENT_TOO_LARGE_REF = "#/components/schemas/ContentTooLargeProblem"

/** Every operation that takes a JSON body answers one over 1 MiB with 413 (see the http problem middleware). */
export const withBodyLimit = (spec: Json): Json => {
  for (const [, , operation] of operationsOf(spec)) {
    if (operation.requestBody?.content?.["application/json"] === undefined) continue
    operation.responses["413"] ??= {
      description: "The body is larger than 1 MiB",
      content: { "application/problem+json": { schema: { $ref: CONTENT_TOO_LARGE_REF } } }
    }
  }
  return spec
}

const UNSUPPORTED_MEDIA_TYPE = {
  type: "object",
  required: ["type", "title", "status", "detail"],
  properties: {
    type: { type: "string" },
    title: { type: "string", enum: ["Unsupported Media Type"] },
    status: { type: "integer", enum: [415] },
    detail: { type: "string", description: "Names the media types the operation takes" }
  }
}

/**
 * Every operation that takes a body answers one of another media type with 415 at once, naming
 * the types it takes (see the http AcceptedMediaTypes); on a POST, Accept-Post lists them too.
 */
export const withMediaTypes = (spec: Json): Json => {
  for (const [, method, operation] of operationsOf(spec)) {
    const taken = Object.keys(operation.requestBody?.content ?? {})
    if (taken.length === 0) continue
    operation.responses["415"] ??= {
      description: `The body is not of a media type the operation takes (${taken.join(" or ")})`,
      ...(method === "post"
        ? {
            headers: {
              "Accept-Post": { description: "The media types the operation takes", schema: { type: "string" } }
            }
          }
        : {}),
      content: { "application/problem+json": { schema: UNSUPPORTED_MEDIA_TYPE } }
    }
  }
  return spec
}

/** The server answers every request 503 (with Retry-After) until the application is ready, /health included. */
export const withStartingHealth = (spec: Json): Json => {
  const health = spec.paths?.["/health"]?.get as Json | undefined
  if (health === undefined) return spec
  health.responses["503"] = {
    description: "The server is starting: try again after Retry-After seconds",
    headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
    content: {
      "application/problem+json": {
        schema: {
          type: "object",
          required: ["type", "title", "status", "detail"],
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer", enum: [503] },
            detail: { type: "string" }
          },
          examples: [
            {
              type: "about:blank",
              title: "Service Unavailable",
              status: 503,
              detail: "The server is starting. Send the request again in a moment."
            }
          ]
        }
      }
    }
  }
  return spec
}

/** The operations that ask the direct debit provider (GoCardless) before answering. */
const PROVIDER_OPERATIONS: ReadonlyArray<readonly [path: string, method: string]> = [
  ["/me/billing/mandate-setups", "post"],
  ["/me/billing/mandate", "put"],
  ["/me/billing/mandate", "get"],
  ["/me/billing/mandate", "delete"]
]

const providerProblem = (status: 502 | 503, title: string, detail: string) => ({
  "application/problem+json": {
    schema: {
      type: "object",
      required: ["type", "title", "status", "detail"],
      properties: {
        type: { type: "string" },
        title: { type: "string" },
        status: { type: "integer", enum: [status] },
        detail: { type: "string" }
      },
      examples: [{ type: "about:blank", title, status, detail }]
    }
  }
})

/**
 * Operations that ask GoCardless answer 503 with Retry-After when it stays unavailable (after
 * the call's 3 tries), and 502 when it refuses a call for a fault of ours or its own (see the
 * http problem middleware): never 500, never the caller's mistake.
 */
export const withProviderFaults = (spec: Json): Json => {
  for (const [path, method] of PROVIDER_OPERATIONS) {
    const operation = spec.paths?.[path]?.[method] as Json | undefined
    if (operation === undefined) continue
    operation.responses["502"] ??= {
      description: "The direct debit provider refused the call for a fault of ours or its own; try again later",
      content: providerProblem(
        502,
        "Bad Gateway",
        "The direct debit provider could not carry out the request, through no fault of yours. We have been told; try again later."
      )
    }
    operation.responses["503"] ??= {
      description: "The direct debit provider is unavailable: try again after Retry-After seconds",
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
      content: providerProblem(
        503,
        "Service Unavailable",
        "The direct debit provider is not answering just now; nothing was changed by it. Send the request again in 30 seconds."
      )
    }
  }
  return spec
}

const contentDisposition = {
  description: "attachment, with the file's name: sent with the file (PDF or CSV) only",
  schema: { type: "string", examples: ['attachment; filename="sales-invoice-payments-2026-04-06-to-2026-05-05.csv"'] }
}

const FILE_TYPES = ["application/pdf", "text/csv"]

/** Answers that carry a file name it in Content-Disposition (a header the platform cannot declare). */
export const withContentDisposition = (spec: Json): Json => {
  for (const [, , operation] of operationsOf(spec)) {
    for (const answer of Object.values(operation.responses ?? {}) as Array<Json>) {
      if (!FILE_TYPES.some((type) => answer.content?.[type] !== undefined)) continue
      answer.headers = { ...answer.headers, "Content-Disposition": contentDisposition }
    }
  }
  return spec
}

/** Refusals made before any work and server faults are not kept for a retry (see the http idempotency middleware). */
const NOT_REPLAYED = new Set(["400", "401", "403", "408", "413", "415", "429"])

const idempotentReplayed = {
  description: "true on an answer given again to a retry with the same Idempotency-Key (the work was not done again)",
  schema: { type: "string", enum: ["true"] }
}

/** An answer a retry with the same Idempotency-Key may get again says so in Idempotent-Replayed. */
export const withIdempotentReplayed = (spec: Json): Json => {
  for (const [, , operation] of operationsOf(spec)) {
    const takesKey = (operation.parameters ?? []).some((p: Json) => p.name === idempotencyKeyParameter.name)
    if (!takesKey) continue
    for (const [status, answer] of Object.entries(operation.responses ?? {}) as Array<[string, Json]>) {
      if (!/^[1-4]\d\d$/.test(status) || NOT_REPLAYED.has(status)) continue
      answer.headers = { ...answer.headers, "Idempotent-Replayed": idempotentReplayed }
    }
  }
  return spec
}

/**
 * The service ignores members it does not know (see core's decodeInput), so no schema a
 * request uses may say `additionalProperties: false`: every schema a request body reaches
 * leaves it out.
 */
export const withOpenRequestBodies = (spec: Json): Json => {
  const components = (spec.components?.schemas ?? {}) as Json
  const seen = new Set<Json>()
  const open = (schema: unknown): void => {
    if (typeof schema !== "object" || schema === null || seen.has(schema)) return
    seen.add(schema)
    const node = schema as Json
    if (typeof node.$ref === "string") open(components[node.$ref.split("/").at(-1) ?? ""])
    if (node.additionalProperties === false) delete node.additionalProperties
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(open)
      else open(value)
    }
  }
  for (const [, , operation] of operationsOf(spec)) {
    for (const media of Object.values(operation.requestBody?.content ?? {}) as Array<Json>) open(media.schema)
  }
  return spec
}

/** Every change the service makes to the generated document. */
export const completeDocument = (spec: Json): Json =>
  withWebhooks(
    withOpenRequestBodies(
      withIdempotentReplayed(
        withContentDisposition(
          withStartingHealth(
            withProviderFaults(
              withMediaTypes(withBodyLimit(withRetryAfter(withIdempotencyKeys(withValidationProblems(spec)))))
            )
          )
        )
      )
    )
  )
