import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/SandboxPath"
import { DirectDebitConfig } from "@cisbook/adapters/gocardless/DirectDebitLive"
import { leaseClaim } from "@cisbook/adapters/sql/LeaseClaim"
import { Clock } from "@cisbook/core/system/Clock"
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Option } from "effect"
import { runLeasedWorker } from "../workers/LeasedWorker.js"
import { SandboxAdmission, SandboxAdmissionLive } from "./SandboxAdmission.js"
import { SandboxConfig } from "./SandboxConfig.js"

/** GoCardless retries a notification about 8 times, starting a minute after the first failure. */
const NOTIFICATION_RETRY_AFTER = Duration.minutes(1)
const NOTIFICATION_MAX_ATTEMPTS = 8

/**
 * The GoCardless-compatible sandbox, only when DIRECT_DEBIT_PROVIDER=sandbox: loaded then (a
 * dynamic import, so that a server talking to GoCardless itself never holds the fake), with
 * its routes under /sandbox/gocardless, the sender of its notifications and the sweeper of its state.
 * Its requests count against the sandboxes' own per-address budget (SandboxAdmission), the
 * server's own calls excepted. Without a database (an in-memory test app) there is no sandbox.
 */
export const GoCardlessSandboxLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const { provider } = yield* DirectDebitConfig
    const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
    if (provider !== "sandbox" || Option.isNone(sql)) return Layer.empty
    const config = yield* SandboxConfig
    const clock = yield* Clock
    const admit = yield* SandboxAdmission
    const { sandboxLayer } = yield* Effect.promise(() => import("@cisbook/fakes/gocardless/SandboxLayer"))

    return sandboxLayer(
      {
        path: SANDBOX_PATH,
        admit,
        notifications: {
          url: `${config.publicBaseUrl}/webhooks/gocardless`,
          secret: config.notificationSecret,
          retryAfter: NOTIFICATION_RETRY_AFTER,
          maxAttempts: NOTIFICATION_MAX_ATTEMPTS
        },
        leaseClaim,
        retention: config.retention
      },
      (sender) =>
        runLeasedWorker(
          sender,
          {
            // The log's and the metrics' labels, which name it as its table does (gocardless_sandbox_webhooks).
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
).pipe(Layer.provide(SandboxAdmissionLive))
