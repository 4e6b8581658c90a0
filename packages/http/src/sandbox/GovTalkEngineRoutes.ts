import {
  GOVTALK_ENGINE_PATH,
  GOVTALK_ENGINE_POLL,
  GOVTALK_ENGINE_SUBMISSION,
  GovTalkConfig
} from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { TOO_MANY_REQUESTS_TYPE } from "@cisbook/sdk/Problem"
import { Effect, Layer, Option } from "effect"
import { problemResponse } from "../problems/ProblemResponse.js"
import { SandboxAdmission, SandboxAdmissionLive } from "./SandboxAdmission.js"

/** Seconds between an acknowledgement and the answer, as the local engine's PollInterval says. */
const POLL_INTERVAL_SECONDS = 1

/** The engine's poll endpoint as the caller reached it, for the ResponseEndPoint of its acknowledgements. */
const pollUrl = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const proto = request.headers["x-forwarded-proto"] ?? "http"
  return `${proto}://${request.headers["host"] ?? "localhost"}${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_POLL}`
})

/**
 * The engine's request handler for its submission endpoint or its response endpoint (which
 * answers polls and deletes, and is named by its acknowledgements), over the service's database. The engine (packages/fakes) is loaded here, when a sandbox is wanted, and only then.
 */
export const govTalkEngineHandler = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const { makeTransactionEngine } = yield* Effect.promise(() => import("@cisbook/fakes/govtalk/TransactionEngine"))
    const engine = yield* Effect.provideService(
      makeTransactionEngine({ pollIntervalSeconds: POLL_INTERVAL_SECONDS }),
      SqlClient.SqlClient,
      sql
    )
    return (endpoint: "submission" | "response") =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = yield* Effect.orElseSucceed(request.text, () => "")
        const reply = yield* Effect.provideService(
          engine.handle(body, yield* pollUrl, endpoint),
          SqlClient.SqlClient,
          sql
        )
        return HttpServerResponse.text(reply.body, { status: reply.status, contentType: "text/xml; charset=UTF-8" })
      })
  })

/** Over the sandboxes' budget: 429 problem+json with Retry-After (the engine's client takes any non-GovTalk answer as "try later"). */
const tooMany = (seconds: number) =>
  problemResponse(
    429,
    "Too Many Requests",
    `Too many requests to the sandbox from your address; try again in ${seconds} seconds.`,
    { type: TOO_MANY_REQUESTS_TYPE, retryAfter: seconds },
    { "retry-after": String(seconds) }
  )

/**
 * The local GovTalk Transaction Engine under /sandbox/govtalk (its submission endpoint, and its
 * response endpoint where polls and deletes go), served only when TAX_AUTHORITY=sandbox, so that
 * a server filing with HMRC never holds it (the path is then unknown, 404). Its requests count
 * against the sandboxes' own per-address budget (SandboxAdmission), the server's own calls excepted.
 */
export const GovTalkEngineRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const { authority } = yield* Effect.orDie(GovTalkConfig)
    const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
    // A composition without a database (an in-memory test app) serves no engine.
    if (authority !== "sandbox" || Option.isNone(sql)) return
    const admit = yield* SandboxAdmission
    const handle = yield* govTalkEngineHandler(sql.value)
    const answer = (endpoint: "submission" | "response") =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.flatMap(admit(request), ({ retryAfterSeconds }) =>
          retryAfterSeconds === undefined ? handle(endpoint) : Effect.succeed(tooMany(retryAfterSeconds))
        )
      )
    yield* router.post(`${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`, answer("submission"))
    yield* router.post(`${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_POLL}`, answer("response"))
  })
).pipe(Layer.provide(SandboxAdmissionLive))
