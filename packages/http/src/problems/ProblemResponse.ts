import { HttpServerResponse } from "@effect/platform"

/** Builds RFC 9457 responses for failures that never reach a declared error schema. */
export const problemResponse = (
  status: number,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {}
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(
    { type: typeFor(status), title, status, detail, ...extensions },
    { status, headers, contentType: status === 401 ? "application/json" : "application/problem+json" }
  )

const sections: Record<number, string> = {
  400: "15.5.1",
  401: "15.5.2",
  403: "15.5.4",
  404: "15.5.5",
  405: "15.5.6",
  408: "15.5.9",
  409: "15.5.10",
  413: "15.5.14",
  415: "15.5.16",
  500: "15.6.1",
  502: "15.6.3",
  503: "15.6.4"
}

export const typeFor = (status: number) =>
  sections[status] ? `https://tools.ietf.org/html/rfc9110#section-${sections[status]}` : "about:blank"
