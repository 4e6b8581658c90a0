import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/SandboxPath"
import { claimWindow, MAX_KEY_LENGTH } from "@cisbook/core/idempotency/RetryWindow"
import { Clock } from "@cisbook/core/system/Clock"
import { IdempotencyKeys, type KeyedRequest, type StoredAnswer } from "@cisbook/core/idempotency/IdempotencyKeys"
import { Authentication } from "@cisbook/core/authentication/Authentication"
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Exit, Option } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { isMultipart, MAX_JSON_BODY } from "../problems/BodyLimits.js"
import { problemResponse } from "../problems/ProblemResponse.js"
import { GOCARDLESS_NOTIFICATIONS_PATH } from "../api/ProviderEventsApi.js"

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key"
export const REPLAYED_HEADER = "idempotent-replayed"

/**
 * Refusals made before any work, kept out of the store so that a corrected retry runs (Stripe
 * keeps no result when the request did not get as far as the endpoint), and server faults, so
 * that a retry runs again. The OpenAPI document marks every other answer as one a retry may get
 * again (IdempotencyOpenApi).
 */
export const NOT_KEPT: ReadonlySet<number> = new Set([400, 401, 403, 408, 413, 415, 429])
const kept = (status: number) => status < 500 && !NOT_KEPT.has(status)

/** The headers a replay repeats: what the client reads of a create's answer. */
const REPEATED_HEADERS = ["location", "content-disposition"]

/**
 * Who is asking, as far as the key is concerned: the user the credential belongs to (so that
 * two keys of one user share their keys, and no one else's key ever matches). None when the
 * credential is missing or wrong: the request then fails authentication as usual.
 */
const callerOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const authentication = yield* Authentication
    const apiKey = request.headers["x-api-key"]
    // Two credentials are refused by authentication (AuthenticateLive): no one is asking.
    if (apiKey && request.headers["authorization"]) return Option.none<string>()
    if (apiKey) return Option.some((yield* authentication.byApiKey(apiKey)).user.id as string)
    const token = /^bearer +(\S+)\s*$/i.exec(request.headers["authorization"] ?? "")?.[1]
    if (token !== undefined) return Option.some((yield* authentication.byBearerToken(token)).user.id as string)
    return Option.none<string>()
  }).pipe(Effect.orElseSucceed(() => Option.none<string>()))

const fingerprintOf = (request: HttpServerRequest.HttpServerRequest, body: string) =>
  createHash("sha256").update(`${request.method} ${request.url}\n`).update(body).digest("base64url")

const wellFormed = (key: string) => key.trim() !== "" && key.length <= MAX_KEY_LENGTH

const answerOf = (response: HttpServerResponse.HttpServerResponse): Option.Option<StoredAnswer> => {
  const headers: Record<string, string> = {}
  for (const name of REPEATED_HEADERS) {
    const value = response.headers[name]
    if (value !== undefined) headers[name] = value
  }
  const { body } = response
  if (body._tag === "Empty") return Option.some({ status: response.status, headers, body: new Uint8Array() })
  if (body._tag !== "Uint8Array") return Option.none()
  return Option.some({
    status: response.status,
    headers: { ...headers, "content-type": body.contentType },
    body: body.body
  })
}

const replay = ({ body, headers, status }: StoredAnswer) => {
  const { "content-type": contentType, ...rest } = headers
  const replayedHeaders = { ...rest, [REPLAYED_HEADER]: "true" }
  return contentType === undefined
    ? HttpServerResponse.empty({ status, headers: replayedHeaders })
    : HttpServerResponse.uint8Array(body, { status, headers: replayedHeaders, contentType })
}

const inProgress = problemResponse(
  409,
  "Conflict",
  "A request with this Idempotency-Key is still being processed. Retry it after a short wait."
)

const usedForAnotherRequest = problemResponse(
  409,
  "Conflict",
  "This Idempotency-Key was already used for a different request (another method, path or body). Use a new key for a new request."
)

const badKey = problemResponse(
  400,
  "Bad Request",
  `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters long.`
)

/** Runs the request that holds the claim, then keeps its answer, or frees the key for a retry. */
const runClaimed = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>, keyed: KeyedRequest) =>
  Effect.gen(function* () {
    const keys = yield* IdempotencyKeys
    // A client that gives up waiting does not stop the work: its retry is answered with the outcome.
    const exit = yield* Effect.exit(Effect.uninterruptible(app))
    const answer = Exit.isSuccess(exit) && kept(exit.value.status) ? answerOf(exit.value) : Option.none()
    yield* Option.match(answer, {
      onNone: () => keys.release(keyed),
      onSome: (stored) => keys.complete(keyed, stored)
    })
    return yield* exit
  })

/**
 * Safe retries (Stripe's semantics): a POST sent with an `Idempotency-Key` is done once; a
 * retry with the same key and the same method, path and body within 24 hours gets the first
 * answer again (marked `Idempotent-Replayed: true`), a retry while the first is still running
 * or with another request is refused with 409. Keys belong to the caller and are kept in the
 * database, so every server process honours them. 5xx answers are not kept.
 */
export const idempotency = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER]
    // Every other request (all reads) goes straight on: this runs on each of them.
    if (
      request.method !== "POST" ||
      key === undefined ||
      request.url.startsWith(SANDBOX_PATH) ||
      request.url === GOCARDLESS_NOTIFICATIONS_PATH
    ) {
      return app
    }
    return keyedRequest(app, request, key)
  })

const keyedRequest = <E, R>(app: HttpApp.Default<E, R>, request: HttpServerRequest.HttpServerRequest, key: string) =>
  Effect.gen(function* () {
    if (!wellFormed(key)) return badKey
    // An upload's endpoint fingerprints the parts it received itself (see onceForKey).
    if (isMultipart(request)) return yield* app
    // The body is read once (the endpoint reads the cached text); one that cannot be read is
    // the endpoint's to answer.
    const body = yield* request.text.pipe(HttpServerRequest.withMaxBodySize(Option.some(MAX_JSON_BODY)), Effect.option)
    if (Option.isNone(body)) return yield* app
    return yield* onceForKey(request, key, body.value, app)
  })

/**
 * Does `work` once for the caller's `key` and the request that `body` (with the method and
 * path) describes: a retry gets the first answer again, another request with the key or a retry
 * while the first runs gets 409. The middleware calls it with a JSON body; an upload's endpoint
 * calls it with a description of the form's parts once it has received them, so that a retry's
 * other multipart boundary does not make it another request.
 */
export const onceForKey = <E, R>(
  request: HttpServerRequest.HttpServerRequest,
  key: string,
  body: string,
  work: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    if (!wellFormed(key)) return badKey
    const scope = yield* callerOf(request)
    if (Option.isNone(scope)) return yield* work
    const keyed: KeyedRequest = {
      scope: scope.value,
      key,
      fingerprint: fingerprintOf(request, body),
      claimId: randomUUID()
    }
    const now = yield* Effect.flatMap(Clock, (clock) => clock.now)
    const claim = yield* Effect.flatMap(IdempotencyKeys, (keys) => keys.claim(keyed, claimWindow(now)))
    switch (claim._tag) {
      case "Answered":
        return replay(claim.answer)
      case "InProgress":
        return inProgress
      case "UsedForAnotherRequest":
        return usedForAnotherRequest
      case "Claimed":
        return yield* runClaimed(work, keyed)
    }
  })
