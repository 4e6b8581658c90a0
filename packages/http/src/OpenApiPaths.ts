/** An OpenAPI document, or a part of one, as the platform's generator writes it (plain JSON). */
export type Json = Record<string, any>

/** Every operation of the document, with its path and method. */
export const operationsOf = (spec: Json): ReadonlyArray<readonly [path: string, method: string, operation: Json]> =>
  (Object.entries(spec.paths ?? {}) as Array<[string, Json]>).flatMap(([path, item]) =>
    (Object.entries(item) as Array<[string, Json]>).map(([method, operation]) => [path, method, operation] as const)
  )
