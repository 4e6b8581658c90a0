import { HttpApi, type HttpServerRequest } from "@effect/platform"
import { Option } from "effect"
import { problemResponse } from "./ProblemResponse.js"
import { CisbookServerApi } from "../api/ServerApi.js"

interface BodyTaker {
  readonly path: RegExp
  readonly mediaTypes: ReadonlyArray<string>
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The operations of the contract that take a body, by method, with the media types each takes. */
const bodyTakers = (): ReadonlyMap<string, ReadonlyArray<BodyTaker>> => {
  const byMethod = new Map<string, Array<BodyTaker>>()
  HttpApi.reflect(CisbookServerApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, payloads }) => {
      if (payloads.size === 0 || endpoint.method === "GET") return
      const path = new RegExp(
        `^${endpoint.path
          .split("/")
          .map((segment) => (segment.startsWith(":") ? "[^/]+" : escape(segment)))
          .join("/")}$`
      )
      const takers = byMethod.get(endpoint.method) ?? []
      takers.push({ path, mediaTypes: [...payloads.keys()] })
      byMethod.set(endpoint.method, takers)
    }
  })
  return byMethod
}

const TAKERS = bodyTakers()

/** The media type of a Content-Type; none sent is read as JSON, as the platform reads it. */
const mediaTypeOf = (contentType: string | undefined) =>
  contentType ? (contentType.split(";")[0] ?? "").trim().toLowerCase() : "application/json"

/** The header that lists what a method's body may be, where there is one (RFC 5789; Accept-Post, W3C LDP). */
const acceptHeader: Partial<Record<string, string>> = { POST: "accept-post", PATCH: "accept-patch" }

/**
 * The 415 for a body of a media type its operation does not take (by the contract), naming the
 * types it takes. Without it the platform read such a body by its Content-Type anyway: a JSON
 * operation sent text got the text decoded (a 400 quoting it), and one sent a `+json` type
 * waited for ever for a body the input screen had already read.
 */
export const unsupportedMediaType = (
  request: HttpServerRequest.HttpServerRequest
): Option.Option<ReturnType<typeof problemResponse>> => {
  const takers = TAKERS.get(request.method)
  if (takers === undefined) return Option.none()
  const path = request.url.split("?")[0] ?? ""
  const taken = takers.filter((taker) => taker.path.test(path)).flatMap((taker) => taker.mediaTypes)
  if (taken.length === 0) return Option.none()
  const sent = mediaTypeOf(request.headers["content-type"])
  if (taken.includes(sent)) return Option.none()
  const named = sent.length > 100 ? `${sent.slice(0, 100)}…` : sent
  const header = acceptHeader[request.method]
  return Option.some(
    problemResponse(
      415,
      "Unsupported Media Type",
      `This operation takes a body of type ${taken.join(" or ")}, not ${named}. Send it with Content-Type: ${taken[0]}.`,
      {},
      { connection: "close", ...(header === undefined ? {} : { [header]: taken.join(", ") }) }
    )
  )
}
