import { type Json, operationsOf } from "../api/OpenApiPaths.js"

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
 * the types it takes (see AcceptedMediaTypes); on a POST, Accept-Post lists them too.
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
