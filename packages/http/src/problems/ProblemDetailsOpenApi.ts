import { MAX_JSON_BODY } from "./BodyLimits.js"
import { type Json, operationsOf, problemJsonContent, retryAfterHeaders } from "../api/OpenApiPaths.js"
import { typeFor } from "./ProblemResponse.js"
import { STORE_BUSY_DETAIL, STORE_BUSY_RETRY_AFTER_SECONDS } from "./StoreBusyProblem.js"

// What the problem middleware (ProblemDetailsMiddleware) answers, in the OpenAPI document.

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
 * them with a validation problem instead (see the problem middleware), so the document
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

const CONTENT_TOO_LARGE_REF = "#/components/schemas/ContentTooLargeProblem"

/** Every operation that takes a JSON body answers one over the JSON body limit with 413. */
export const withBodyLimit = (spec: Json): Json => {
  for (const [, , operation] of operationsOf(spec)) {
    if (operation.requestBody?.content?.["application/json"] === undefined) continue
    operation.responses["413"] ??= {
      description: `The body is larger than ${MAX_JSON_BODY / 1024 / 1024} MiB`,
      content: { "application/problem+json": { schema: { $ref: CONTENT_TOO_LARGE_REF } } }
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

/**
 * Operations that ask GoCardless answer 503 with Retry-After when it stays unavailable (after
 * the call's 3 tries), and 502 when it refuses a call for a fault of ours or its own (see the
 * problem middleware): never 500, never the caller's mistake.
 */
export const withProviderFaults = (spec: Json): Json => {
  for (const [path, method] of PROVIDER_OPERATIONS) {
    const operation = spec.paths?.[path]?.[method] as Json | undefined
    if (operation === undefined) continue
    operation.responses["502"] ??= {
      description: "The direct debit provider refused the call for a fault of ours or its own; try again later",
      content: problemJsonContent(
        502,
        "Bad Gateway",
        "The direct debit provider could not carry out the request, through no fault of yours. We have been told; try again later."
      )
    }
    operation.responses["503"] ??= {
      description: "The direct debit provider is unavailable: try again after Retry-After seconds",
      headers: retryAfterHeaders(),
      content: problemJsonContent(
        503,
        "Service Unavailable",
        "The direct debit provider is not answering just now; nothing was changed by it. Send the request again in 30 seconds."
      )
    }
  }
  return spec
}

/** The health checks answer for the process itself: they carry their own 503. */
const HEALTH_PATHS = new Set(["/health", "/health/ready"])

const STORE_BUSY = "the database could not serve the request just now (a lock, a deadlock, a lost connection)"

/**
 * Every other operation answers 503 with Retry-After, never 500, when the database could not
 * serve it just now (StoreBusyProblem): the same request may succeed when sent again. An
 * operation that already lists a 503 (GoCardless unavailable) says it may be either.
 */
export const withStoreBusy = (spec: Json): Json => {
  for (const [path, , operation] of operationsOf(spec)) {
    if (HEALTH_PATHS.has(path)) continue
    const listed = operation.responses["503"] as Json | undefined
    if (listed !== undefined) {
      listed.description = `${listed.description}; or ${STORE_BUSY}`
      continue
    }
    const content = problemJsonContent(503, "Service Unavailable", STORE_BUSY_DETAIL)
    const schema = content["application/problem+json"].schema as Json
    schema.properties.retryAfter = {
      type: "integer",
      description: "Seconds to wait before trying again (as Retry-After)"
    }
    schema.examples[0] = { ...schema.examples[0], type: typeFor(503), retryAfter: STORE_BUSY_RETRY_AFTER_SECONDS }
    operation.responses["503"] = {
      description: `Try again after Retry-After seconds: ${STORE_BUSY}`,
      headers: retryAfterHeaders(),
      content
    }
  }
  return spec
}
