import { DirectDebitFault, DirectDebitUnavailable } from "@cisbook/core/billing/mandates/DirectDebitFaults"
import { MAX_IMPORT_FILE_BYTES } from "@cisbook/core/contacts/ImportLimits"
import { describeFieldErrors, fieldErrors } from "@cisbook/core/Validation"
import { VALIDATION_TITLE } from "@cisbook/sdk/Problem"
import { HttpApiBuilder, HttpApiError, HttpServerError, HttpServerRequest, Multipart } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Cause, Effect, Option } from "effect"
import { unsupportedMediaType } from "./AcceptedMediaTypes.js"
import { isMultipart, limitFor } from "./BodyLimits.js"
import { screenInput, screenUrl } from "./InputScreen.js"
import { overflowKeepsSocket } from "../transport/OverflowKeepsSocket.js"
import { problemResponse } from "./ProblemResponse.js"
import { storeBusyProblem } from "./StoreBusyProblem.js"
import { failTruncatedMultipart } from "../transport/TruncatedMultipartGuard.js"

/** The one upload the API takes is a contact import file. */
const MAX_UPLOAD_FILE = MAX_IMPORT_FILE_BYTES

// The rest of the body is thrown away, not read: the connection is closed after the answer.
const tooLarge = (limit: number) =>
  problemResponse(
    413,
    "Content Too Large",
    `The request body is larger than the ${limit / 1024 / 1024} MiB this endpoint accepts.`,
    {},
    { connection: "close" }
  )

const limitByReason: Partial<Record<Multipart.MultipartError["reason"], string>> = {
  FileTooLarge: "MaxPartSize",
  FieldTooLarge: "MaxFieldSize",
  BodyTooLarge: "MaxTotalSize",
  TooManyParts: "MaxParts"
}

/** The limit a form went over, if any: Node's parser reports one as an InternalError caused by it. */
const reachedLimit = (error: Multipart.MultipartError): unknown => {
  const cause = error.cause as { readonly _tag?: unknown; readonly limit?: unknown } | null | undefined
  return cause?._tag === "ReachedLimit" ? cause.limit : limitByReason[error.reason]
}

/** A problem for a multipart form that went over a limit or could not be parsed; none for a fault of ours. */
const multipartProblem = (error: Multipart.MultipartError, limit: number) => {
  const reached = reachedLimit(error)
  if (reached === "MaxPartSize") {
    return Option.some(
      problemResponse(
        413,
        "Content Too Large",
        `The file is larger than ${MAX_UPLOAD_FILE / 1024 / 1024} MiB, the most an uploaded file may be. Split it into smaller files.`
      )
    )
  }
  if (reached !== undefined) return Option.some(tooLarge(limit))
  // A file part closed before its end: the body was cut short (see TruncatedMultipartGuard).
  const cutShort = (error.cause as { readonly code?: unknown } | undefined)?.code === "ERR_STREAM_PREMATURE_CLOSE"
  if (error.reason === "Parse" || cutShort) {
    return Option.some(
      problemResponse(
        400,
        "Bad Request",
        "The request body could not be read as the multipart form the endpoint documents."
      )
    )
  }
  return Option.none()
}

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

/** GoCardless stayed unavailable through the call's tries: the client tries again later, never a 500. */
const providerUnavailable = (error: DirectDebitUnavailable) =>
  problemResponse(
    503,
    "Service Unavailable",
    `The direct debit provider is not answering just now; nothing was changed by it. Send the request again in ${error.retryAfterSeconds} seconds.`,
    {},
    { "retry-after": String(error.retryAfterSeconds) }
  )

/** GoCardless refused a call for a fault of ours or its own: 502, logged as an error, never the caller's mistake. */
const providerFault = (cause: Cause.Cause<unknown>) =>
  Effect.logError("The direct debit provider refused a call for a fault of ours or its own", cause).pipe(
    Effect.as(
      problemResponse(
        502,
        "Bad Gateway",
        "The direct debit provider could not carry out the request, through no fault of yours. We have been told; try again later."
      )
    )
  )

/**
 * A read that carries no body (every GET of the API): no body limits, multipart guards or JSON
 * screening apply to it. Only reads: an empty POST may still be a multipart form to refuse.
 */
const isBodilessRead = (request: HttpServerRequest.HttpServerRequest) =>
  (request.method === "GET" || request.method === "HEAD") &&
  (request.headers["content-length"] ?? "0") === "0" &&
  request.headers["transfer-encoding"] === undefined

/** The answer for a failure the endpoint did not answer itself, or the failure for the contract's encoders. */
const problemFor =
  (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  <E>(cause: Cause.Cause<E>) => {
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
    if (error instanceof Multipart.MultipartError) {
      const problem = multipartProblem(error, limit)
      if (Option.isSome(problem)) return Effect.succeed(problem.value)
    }
    if (error instanceof DirectDebitUnavailable) return Effect.succeed(providerUnavailable(error))
    if (error instanceof DirectDebitFault) return providerFault(cause)
    const busy = storeBusyProblem(error, cause)
    if (Option.isSome(busy)) return busy.value
    const declared =
      Option.isSome(Cause.failureOption(cause)) && typeof error === "object" && error !== null && "detail" in error
    return declared ? Effect.failCause(cause) : internalError(cause)
  }

/** HTTP/1.1 requires a Host header (RFC 9112, 3.2); Node would answer its absence with a bare 400. */
const lacksRequiredHost = (request: HttpServerRequest.HttpServerRequest) =>
  NodeHttpServerRequest.toIncomingMessage(request).httpVersion === "1.1"

const missingHost = () =>
  problemResponse(
    400,
    "Bad Request",
    "An HTTP/1.1 request must carry a Host header.",
    {},
    {
      connection: "close"
    }
  )

/**
 * Makes every failure an RFC 9457 problem: request decode failures become validation problems
 * naming each invalid member, unknown routes and unreadable or oversized bodies get their own
 * problems, declared domain errors go on to the contract's encoders, a database too busy just
 * now is a 503 with Retry-After, and anything else is a 500 that carries only a trace id (also
 * written to the log with the cause).
 */
export const ProblemDetailsMiddleware = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.headers.host === undefined && lacksRequiredHost(request)) return Effect.succeed(missingHost())
    const limit = limitFor(request)
    // Reads skip the guards of body reading, each of which costs fiber-local state and a finalizer a request.
    if (isBodilessRead(request)) {
      return Option.match(screenUrl(request), { onNone: () => app, onSome: Effect.succeed }).pipe(
        Effect.catchAllCause(problemFor(request, limit))
      )
    }
    const declaredLength = Number(request.headers["content-length"] ?? 0)
    if (declaredLength > limit) return Effect.succeed(tooLarge(limit))
    const unsupported = unsupportedMediaType(request)
    if (Option.isSome(unsupported)) return Effect.succeed(unsupported.value)
    // The multipart parser throws on a form without a boundary instead of failing.
    if (isMultipart(request) && !/;\s*boundary=("[^"]+"|[^;\s"]+)/i.test(request.headers["content-type"] ?? "")) {
      return Effect.succeed(
        problemResponse(400, "Bad Request", "A multipart/form-data body needs a boundary in its Content-Type.")
      )
    }
    return screenInput(request).pipe(
      // An unreadable body is answered below, as it is when the endpoint reads it.
      Effect.orDie,
      Effect.flatMap(Option.match({ onNone: () => app, onSome: Effect.succeed })),
      failTruncatedMultipart,
      HttpServerRequest.withMaxBodySize(Option.some(limit)),
      Multipart.withMaxFileSize(Option.some(MAX_UPLOAD_FILE)),
      overflowKeepsSocket,
      Effect.catchAllCause(problemFor(request, limit))
    )
  })
)
