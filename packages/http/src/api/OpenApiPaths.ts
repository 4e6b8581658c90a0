/** An OpenAPI document, or a part of one, as the platform's generator writes it (plain JSON). */
export type Json = Record<string, any>

/** Every operation of the document, with its path and method. */
export const operationsOf = (spec: Json): ReadonlyArray<readonly [path: string, method: string, operation: Json]> =>
  (Object.entries(spec.paths ?? {}) as Array<[string, Json]>).flatMap(([path, item]) =>
    (Object.entries(item) as Array<[string, Json]>).map(([method, operation]) => [path, method, operation] as const)
  )

/** The Retry-After header of a 503 answer: a new object each time, as the document is mutated later. */
export const retryAfterHeaders = (): Json => ({
  "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } }
})

/** An `application/problem+json` content of one status, with its example: a problem the server writes itself. */
export const problemJsonContent = (status: number, title: string, detail: string): Json => ({
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
