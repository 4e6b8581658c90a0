import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/SandboxPath"
import { DirectDebitConfig } from "@cisbook/adapters/gocardless/DirectDebitLive"
import { leaseClaim } from "@cisbook/adapters/sql/LeaseClaim"
import { Clock } from "@cisbook/core/system/Clock"
import { RateLimits } from "@cisbook/core/system/RateLimits"
import { FetchHttpClient, type HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Option } from "effect"
import { clientAddress, TrustedProxiesConfig } from "../ClientAddress.js"
import { runLeasedWorker } from "../workers/LeasedWorker.js"
import { SandboxConfig } from "./SandboxConfig.js"

/** GoCardless retries a webhook about 8 times, starting a minute after the first failure. */
const WEBHOOK_RETRY_AFTER = Duration.minutes(1)
const WEBHOOK_MAX_ATTEMPTS = 8

/**
 * The GoCardless-compatible sandbox, only when DIRECT_DEBIT_PROVIDER=sandbox: loaded then (a
 * dynamic import, so that a server talking to GoCardless itself never holds the fake), with
 * its routes under /sandbox/gocardless, the sender of its webhooks and the sweeper of its state.
 * Its requests carry no credential, so each counts against the per-address limit of
 * unauthenticated requests. Without a database (an in-memory test app) there is no sandbox.
 */
export const GoCardlessSandboxLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const { provider } = yield* DirectDebitConfig
    const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
    if (provider !== "sandbox" || Option.isNone(sql)) return Layer.empty
    const config = yield* SandboxConfig
    const trustedProxies = yield* TrustedProxiesConfig
    const limits = yield* RateLimits
    const clock = yield* Clock
    const { goCardlessSandboxLive } = yield* Effect.promise(
      () => import("@cisbook/fakes/gocardless/GoCardlessSandboxLive")
    )

    const admit = (request: HttpServerRequest.HttpServerRequest) => {
      const address = clientAddress(request.remoteAddress, request.headers["x-forwarded-for"], trustedProxies)
      return limits.mayAuthenticate(address).pipe(
        Effect.zipRight(limits.authenticationFailed(address)),
        Effect.as(undefined),
        Effect.catchTag("RateLimited", (limited) =>
          Effect.succeed(Math.max(1, Math.ceil(Duration.toSeconds(limited.retryAfter))))
        )
      )
    }

    return goCardlessSandboxLive(
      {
        path: SANDBOX_PATH,
        admit,
        webhooks: {
          url: `${config.publicBaseUrl}/webhooks/gocardless`,
          secret: config.webhookSecret,
          retryAfter: WEBHOOK_RETRY_AFTER,
          maxAttempts: WEBHOOK_MAX_ATTEMPTS
        },
        leaseClaim,
        retention: config.retention
      },
      (sender) =>
        runLeasedWorker(
          sender,
          {
            worker: "GoCardless sandbox webhook sender",
            items: "webhooks",
            work: "sandbox webhooks",
            failed: (outcome) => outcome.deliveredAt === null
          },
          // A minute's lease: longer than an attempt can take (10 s).
          { pollInterval: Duration.seconds(1), concurrency: 4, lease: Duration.minutes(1) }
        )
    ).pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(Layer.succeed(SqlClient.SqlClient, sql.value)),
      Layer.provide(Layer.succeed(Clock, clock))
    )
  })
)
