import {
  Conflict,
  FieldErrors,
  Forbidden,
  NotFound,
  Refused,
  type Remedy,
  Unauthorized,
  ValidationFailed
} from "@cisbook/core/Errors"
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { detailForHttp } from "./RemedyRequest.js"

/** Writes a member path the way the service names members in `errors`: `lines[0].contact`. */
export { memberPath } from "@cisbook/core/MemberPath"

/**
 * RFC 9457 problem bodies. Each core error category is carried on the wire as a problem with
 * its own status and title; the derived client decodes the body back into the core error, so
 * callers handle `NotFound`, `Conflict`, ... by tag.
 */
const problemType = (section: string) => `https://tools.ietf.org/html/rfc9110#section-${section}`

/** The members of every problem body, for a problem of `title` and `status`. */
export const problemFields = <Title extends string>(title: Title, status: number) => ({
  type: Schema.String.annotations({ examples: [problemType("15.5.1")] }),
  title: Schema.Literal(title),
  status: Schema.Literal(status),
  detail: Schema.String,
  traceId: Schema.optional(Schema.String)
})

/** A problem body, sent as `application/problem+json`. */
export const ProblemJson = <S extends Schema.Schema.Any>(schema: S): S =>
  HttpApiSchema.withEncoding(schema, { kind: "Json", contentType: "application/problem+json" })

interface ProblemOptions {
  readonly status: number
  readonly title: string
  readonly section: string
  readonly identifier: string
  readonly description: string
}

const simpleProblem = <
  Tag extends string,
  E extends { readonly _tag: Tag; readonly detail: string; readonly remedy?: Remedy | undefined }
>(
  error: Schema.Schema<E, { readonly _tag: Tag; readonly detail: string }>,
  tag: Tag,
  options: ProblemOptions
) =>
  Schema.transform(
    Schema.Struct(problemFields(options.title, options.status)).annotations({ identifier: options.identifier }),
    error,
    {
      strict: true,
      decode: (body) => ({ _tag: tag, detail: body.detail }),
      encode: (e) => ({
        type: problemType(options.section),
        title: options.title,
        status: options.status,
        detail: detailForHttp(e)
      })
    }
  ).annotations(HttpApiSchema.annotations({ status: options.status, description: options.description }))

/** 401 is plain JSON, as the specification says; every other problem is application/problem+json. */
export const UnauthorizedProblem = simpleProblem(Unauthorized, "Unauthorized", {
  status: 401,
  title: "Unauthorized",
  section: "15.5.2",
  identifier: "UnauthorizedProblem",
  description: "Missing or invalid API key or bearer token, or both sent in one request"
})

export const ForbiddenProblem = ProblemJson(
  simpleProblem(Forbidden, "Forbidden", {
    status: 403,
    title: "Forbidden",
    section: "15.5.4",
    identifier: "ForbiddenProblem",
    description: "The caller may not act for this tenant"
  })
)

export const NotFoundProblem = ProblemJson(
  simpleProblem(NotFound, "NotFound", {
    status: 404,
    title: "Not Found",
    section: "15.5.5",
    identifier: "NotFoundProblem",
    description: "Not found"
  })
)

export const ConflictProblem = ProblemJson(
  simpleProblem(Conflict, "Conflict", {
    status: 409,
    title: "Conflict",
    section: "15.5.10",
    identifier: "ConflictProblem",
    description: "Conflict with the current state"
  })
)

export const RefusedProblem = ProblemJson(
  simpleProblem(Refused, "Refused", {
    status: 400,
    title: "Bad Request",
    section: "15.5.1",
    identifier: "BadRequestProblem",
    description: "The request was refused by a rule"
  })
)

/** The request body, or a file in it, is larger than the service accepts. */
export class ContentTooLarge extends Schema.TaggedError<ContentTooLarge>()("ContentTooLarge", {
  detail: Schema.String
}) {}

export const ContentTooLargeProblem = ProblemJson(
  simpleProblem(ContentTooLarge, "ContentTooLarge", {
    status: 413,
    title: "Content Too Large",
    section: "15.5.14",
    identifier: "ContentTooLargeProblem",
    description: "The request, or a file in it, is larger than the service accepts"
  })
)

/** The process cannot serve yet (or any more): its database does not answer, its schema is behind, or it is shutting down. */
export class NotReady extends Schema.TaggedError<NotReady>()("NotReady", {
  detail: Schema.String
}) {}

export const NotReadyProblem = ProblemJson(
  simpleProblem(NotReady, "NotReady", {
    status: 503,
    title: "Service Unavailable",
    section: "15.6.4",
    identifier: "NotReadyProblem",
    description:
      "Not ready: the database does not answer, its schema is behind this version, or the process is shutting down"
  })
)

/** Too many requests, or too many failed authentications from the client's address: try again after `retryAfter` seconds. */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", {
  detail: Schema.String,
  retryAfter: Schema.Int
}) {}

export const TOO_MANY_REQUESTS_TYPE = "https://www.rfc-editor.org/rfc/rfc6585#section-4"

/** 429, with the wait in the Retry-After header and, for clients that read only the body, in `retryAfter`. */
export const TooManyRequestsProblem = ProblemJson(
  Schema.transform(
    Schema.Struct({
      ...problemFields("Too Many Requests", 429),
      type: Schema.String.annotations({ examples: [TOO_MANY_REQUESTS_TYPE] }),
      retryAfter: Schema.Int.annotations({ description: "Seconds to wait before trying again (as Retry-After)" })
    }).annotations({ identifier: "TooManyRequestsProblem" }),
    TooManyRequests,
    {
      strict: true,
      decode: (body) => ({ _tag: "TooManyRequests" as const, detail: body.detail, retryAfter: body.retryAfter }),
      encode: (e) => ({
        type: TOO_MANY_REQUESTS_TYPE,
        title: "Too Many Requests" as const,
        status: 429 as const,
        detail: e.detail,
        retryAfter: e.retryAfter
      })
    }
  ).annotations(
    HttpApiSchema.annotations({
      status: 429,
      description:
        "Too many requests of the user, or too many failed authentications from the client's address; Retry-After says when to try again"
    })
  )
)

export const VALIDATION_TITLE = "One or more validation errors occurred." as const

const ValidationErrors = FieldErrors.annotations({
  description:
    "Each invalid member's messages, under its path as ASP.NET Core writes it: members joined by '.', array positions in brackets (lines[0].contact, address.lines[1]); $ is the request body itself",
  examples: [{ "lines[0].contact": ["NET is on the return more than once"], periodEnd: ["Must be a 5th"] }]
})

export const ValidationProblem = Schema.transform(
  Schema.Struct({ ...problemFields(VALIDATION_TITLE, 400), errors: ValidationErrors }).annotations({
    identifier: "ValidationProblem"
  }),
  ValidationFailed,
  {
    strict: true,
    decode: (body) => ({ _tag: "ValidationFailed" as const, detail: body.detail, errors: body.errors }),
    encode: (e) => ({
      type: problemType("15.5.1"),
      title: VALIDATION_TITLE,
      status: 400 as const,
      detail: e.detail,
      errors: e.errors
    })
  }
)
  .pipe(ProblemJson)
  .annotations(
    HttpApiSchema.annotations({
      status: 400,
      description: "Invalid request: every invalid member is named in errors by its path, such as lines[0].contact"
    })
  )
