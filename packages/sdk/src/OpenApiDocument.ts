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
