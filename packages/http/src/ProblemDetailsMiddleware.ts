import { describeFieldErrors, fieldErrors } from "@cisbook/core/Validation"
import { VALIDATION_TITLE } from "@cisbook/sdk/Problem"
import { HttpApiBuilder, HttpApiError, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { problemResponse } from "./Problems.js"

/** JSON bodies are small; an upload may be larger (its own endpoint checks the file itself). */
const MAX_JSON_BODY = 1024 * 1024
const MAX_MULTIPART_BODY = 12 * 1024 * 1024

const limitFor = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").startsWith("multipart/") ? MAX_MULTIPART_BODY : MAX_JSON_BODY

const tooLarge = (limit: number) =>
  problemResponse(
    413,
    "Content Too Large",
    `The request body is larger than the ${limit / 1024 / 1024} MiB this endpoint accepts.`
  )

const friendly = (message: string) => (message === "is missing" ? "Required" : message)

const validationProblem = (error: HttpApiError.HttpApiDecodeError) => {
  const errors = fieldErrors(error.issues.map((issue) => ({ path: issue.path, message: friendly(issue.message) })))
  return problemResponse(400, VALIDATION_TITLE, describeFieldErrors(errors), { errors })
}

const requestProblem = (error: HttpServerError.RequestError, limit: number) => {
  if (error.cause instanceof Error && error.cause.message === "maxBytes exceeded") return tooLarge(limit)
  if (error.reason === "Decode") {
    return problemResponse(
      400,
      "Bad Request",
      "The request body could not be read: it must be valid JSON (or the multipart form the endpoint documents)."
    )
  }
  return problemResponse(400, "Bad Request", "The request could not be read.")
}

const internalError = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function* () {
    // With tracing off the current span is a no-op whose trace id says "noop": make one up then.
    const span = yield* Effect.currentSpan.pipe(Effect.option)
    const traceId = Option.match(
      Option.filter(span, (s) => /^[0-9a-f]{16,}$/.test(s.traceId)),
      {
        onNone: () => crypto.randomUUID().replaceAll("-", ""),
        onSome: (s) => s.traceId
      }
    )
    yield* Effect.logError("Unhandled failure while serving a request", cause).pipe(Effect.annotateLogs({ traceId }))
    return problemResponse(
      500,
      "An error occurred while processing your request.",
      "Something went wrong on our side. Quote the traceId if you contact support.",
      { traceId }
    )
  })

/**
 * Makes every failure an RFC 9457 problem: request decode failures become validation problems
 * naming each invalid member, unknown routes and unreadable or oversized bodies get their own
 * problems, declared domain errors go on to the contract's encoders, and anything else is a 500
 * that carries only a trace id (also written to the log with the cause).
 */
export const ProblemDetailsMiddleware = HttpApiBuilder.middleware((app) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const limit = limitFor(request)
    const declaredLength = Number(request.headers["content-length"] ?? 0)
    if (declaredLength > limit) return tooLarge(limit)
    return yield* app.pipe(
      HttpServerRequest.withMaxBodySize(Option.some(limit)),
      Effect.catchAllCause((cause) => {
        if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
        // The platform reports some request faults (an unreadable body) as defects.
        const error: unknown = Cause.squash(cause)
        if (error instanceof HttpApiError.HttpApiDecodeError) return Effect.succeed(validationProblem(error))
        if (error instanceof HttpServerError.RouteNotFound) {
          return Effect.succeed(
            problemResponse(
              404,
              "Not Found",
              `There is no ${request.method} ${request.url.split("?")[0]} in this API. See /docs.`
            )
          )
        }
        if (error instanceof HttpServerError.RequestError) return Effect.succeed(requestProblem(error, limit))
        const declared =
          Option.isSome(Cause.failureOption(cause)) && typeof error === "object" && error !== null && "detail" in error
        return declared ? Effect.failCause(cause) : internalError(cause)
      })
    )
  })
)
