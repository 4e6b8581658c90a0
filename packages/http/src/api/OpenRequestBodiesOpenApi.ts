import { type Json, operationsOf } from "./OpenApiPaths.js"

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
