import { describeFieldErrors, fieldErrors } from "@cisbook/core/Validation"
import { VALIDATION_TITLE } from "@cisbook/sdk/Problem"
import type { HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { problemResponse } from "./ProblemResponse.js"

/** How deep a JSON body may nest; the API's own bodies need 4. */
export const MAX_JSON_DEPTH = 32

/** The longest string any member or query parameter may carry; members with tighter bounds say so. */
export const MAX_STRING_LENGTH = 10_000

// With the u flag a well-formed pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u

type Issue = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

/** Why PostgreSQL (or a JSON copy of it) could not store this text, if it could not. */
const textFault = (text: string): string | undefined => {
  if (text.includes("\u0000")) return "Must not contain the NUL character (U+0000)"
  if (LONE_SURROGATE.test(text)) return "Must be well-formed Unicode (it has a lone surrogate)"
  if (text.length > MAX_STRING_LENGTH) return `Must be at most ${MAX_STRING_LENGTH} characters`
  return undefined
}

/**
 * Every string (member names too) of a parsed JSON body that no store accepts. Iterative, and it
 * stops at the depth limit, so that a hostile nesting cannot exhaust the stack here or later.
 */
const jsonIssues = (body: unknown): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  const pending: Array<{ readonly value: unknown; readonly path: ReadonlyArray<PropertyKey> }> = [
    { value: body, path: [] }
  ]
  while (pending.length > 0 && issues.length < 20) {
    const { path, value } = pending.pop()!
    if (typeof value === "string") {
      const fault = textFault(value)
      if (fault !== undefined) issues.push({ path, message: fault })
    } else if (typeof value === "object" && value !== null) {
      if (path.length >= MAX_JSON_DEPTH) {
        issues.push({ path, message: `Must not nest deeper than ${MAX_JSON_DEPTH} levels` })
        continue
      }
      for (const [key, member] of Object.entries(value)) {
        const memberPath = [...path, Array.isArray(value) ? Number(key) : key]
        const keyFault = textFault(key)
        if (keyFault !== undefined) issues.push({ path: memberPath, message: `Member name: ${keyFault}` })
        else pending.push({ value: member, path: memberPath })
      }
    }
  }
  return issues
}

const queryIssues = (url: string): ReadonlyArray<Issue> => {
  const query = url.indexOf("?")
  if (query < 0) return []
  const issues: Array<Issue> = []
  for (const [name, value] of new URLSearchParams(url.slice(query + 1))) {
    const fault = textFault(name) ?? textFault(value)
    if (fault !== undefined) issues.push({ path: [name], message: fault })
  }
  return issues
}

const pathIssues = (url: string): ReadonlyArray<Issue> => {
  const path = url.split("?")[0] ?? ""
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return [{ path: [], message: "The path has a malformed percent-encoding" }]
  }
  const fault = textFault(decoded)
  return fault === undefined ? [] : [{ path: [], message: `The path: ${fault}` }]
}

const problem = (issues: ReadonlyArray<Issue>) => {
  const errors = fieldErrors(issues)
  return problemResponse(400, VALIDATION_TITLE, describeFieldErrors(errors), { errors })
}

/**
 * Whether the platform will parse the body as JSON: exactly when it has no Content-Type or one
 * that contains application/json (HttpApiBuilder's own test). Any narrower test lets a body the
 * platform parses through unscreened (one sent without Content-Type overflowed the stack when
 * its decoding failure quoted it); a wider one reads as text a body the platform then reads as
 * bytes, which waits for ever.
 */
const hasJsonBody = (request: HttpServerRequest.HttpServerRequest) => {
  if (request.method === "GET" || request.method === "HEAD") return false
  const contentType = request.headers["content-type"]
  return !contentType || contentType.toLowerCase().includes("application/json")
}

/** The problem with a request's path or query string that no endpoint can take, if any. */
export const screenUrl = (request: HttpServerRequest.HttpServerRequest): Option.Option<ReturnType<typeof problem>> => {
  const issues = [...pathIssues(request.url), ...queryIssues(request.url)]
  return issues.length > 0 ? Option.some(problem(issues)) : Option.none()
}

/**
 * Refuses, before anything is decoded or stored, the input no endpoint can take: text PostgreSQL
 * cannot hold (NUL, lone surrogates), strings over the global bound and JSON nested deeper than
 * any body of the API. A body that is not JSON at all is left to the endpoint's own decoding.
 */
export const screenInput = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<Option.Option<ReturnType<typeof problem>>, HttpServerError.RequestError> =>
  Effect.gen(function* () {
    const urlProblem = screenUrl(request)
    if (Option.isSome(urlProblem)) return urlProblem
    if (!hasJsonBody(request)) return Option.none()
    const text = yield* request.text
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return Option.none()
    }
    const issues = jsonIssues(body)
    return issues.length > 0 ? Option.some(problem(issues)) : Option.none()
  })
