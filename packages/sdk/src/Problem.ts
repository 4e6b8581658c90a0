import {
  Conflict,
  FieldErrors,
  Forbidden,
  NotFound,
  Refused,
  Unauthorized,
  ValidationFailed
} from "@cisbook/core/Errors"
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * RFC 9457 problem bodies. Each core error category is carried on the wire as a problem with
 * its own status and title; the derived client decodes the body back into the core error, so
 * callers handle `NotFound`, `Conflict`, ... by tag.
 */
const problemType = (section: string) => `https://tools.ietf.org/html/rfc9110#section-${section}`

const problemFields = <Title extends string>(title: Title, status: number) => ({
  type: Schema.String.annotations({ examples: [problemType("15.5.1")] }),
  title: Schema.Literal(title),
  status: Schema.Literal(status),
  detail: Schema.String,
  traceId: Schema.optional(Schema.String)
})

const ProblemJson = <S extends Schema.Schema.Any>(schema: S): S =>
  HttpApiSchema.withEncoding(schema, { kind: "Json", contentType: "application/problem+json" })

const simpleProblem = <Tag extends string, E extends { readonly _tag: Tag; readonly detail: string }>(
  error: Schema.Schema<E, { readonly _tag: Tag; readonly detail: string }>,
  tag: Tag,
  options: { readonly status: number; readonly title: string; readonly section: string; readonly identifier: string }
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
        detail: e.detail
      })
    }
  )

export const UnauthorizedProblem = simpleProblem(Unauthorized, "Unauthorized", {
  status: 401,
  title: "Unauthorized",
  section: "15.5.2",
  identifier: "UnauthorizedProblem"
}).annotations(HttpApiSchema.annotations({ status: 401, description: "Missing or invalid API key or bearer token" }))

export const ForbiddenProblem = simpleProblem(Forbidden, "Forbidden", {
  status: 403,
  title: "Forbidden",
  section: "15.5.4",
  identifier: "ForbiddenProblem"
})
  .pipe(ProblemJson)
  .annotations(HttpApiSchema.annotations({ status: 403, description: "The caller may not act for this tenant" }))

export const NotFoundProblem = simpleProblem(NotFound, "NotFound", {
  status: 404,
  title: "Not Found",
  section: "15.5.5",
  identifier: "NotFoundProblem"
})
  .pipe(ProblemJson)
  .annotations(HttpApiSchema.annotations({ status: 404, description: "Not found" }))

export const ConflictProblem = simpleProblem(Conflict, "Conflict", {
  status: 409,
  title: "Conflict",
  section: "15.5.10",
  identifier: "ConflictProblem"
})
  .pipe(ProblemJson)
  .annotations(HttpApiSchema.annotations({ status: 409, description: "Conflict with the current state" }))

export const RefusedProblem = simpleProblem(Refused, "Refused", {
  status: 400,
  title: "Bad Request",
  section: "15.5.1",
  identifier: "BadRequestProblem"
})
  .pipe(ProblemJson)
  .annotations(HttpApiSchema.annotations({ status: 400, description: "The request was refused by a rule" }))

export const VALIDATION_TITLE = "One or more validation errors occurred." as const

export const ValidationProblem = Schema.transform(
  Schema.Struct({ ...problemFields(VALIDATION_TITLE, 400), errors: FieldErrors }).annotations({
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
    HttpApiSchema.annotations({ status: 400, description: "Invalid request: every invalid member is named in errors" })
  )
