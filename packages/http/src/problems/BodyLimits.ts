import type { HttpServerRequest } from "@effect/platform"

/** JSON bodies are small; an upload may be larger (its own endpoint checks the file itself). */
export const MAX_JSON_BODY = 1024 * 1024
export const MAX_MULTIPART_BODY = 12 * 1024 * 1024

export const isMultipart = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").startsWith("multipart/")

export const limitFor = (request: HttpServerRequest.HttpServerRequest) =>
  isMultipart(request) ? MAX_MULTIPART_BODY : MAX_JSON_BODY
