import type { Clock } from "@cisbook/core/system/Clock"
import type { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { type Duration, Effect, Layer, type Scope } from "effect"
import { GoCardlessSandboxSql } from "./GoCardlessSandbox.js"
import { runSandboxSweeper } from "./SandboxRetention.js"
import { type Admission, sandboxRoutes } from "./SandboxRoutes.js"
import { makeSandboxStore, makeNotificationOutbox, type NotificationLeases, notificationRows } from "./SandboxStore.js"
import { makeNotificationSender, type NotificationOptions } from "./SandboxNotifications.js"

export interface SandboxOptions {
  /** Where the server serves it (`/sandbox/gocardless`). */
  readonly path: string
  /** The per-address rate limit its requests count against. */
  readonly admit: Admission
  readonly notifications: NotificationOptions
  /** The server's one lease-claim helper, which claims the sandbox's notifications as it claims every job's rows. */
  readonly leaseClaim: (sql: SqlClient.SqlClient, rows: ReturnType<typeof notificationRows>) => NotificationLeases
  /** How long it keeps what it made (SANDBOX_RETENTION_DAYS). */
  readonly retention: Duration.Duration
}

/** The notification sender in the shape of the server's workers, for the server to run as it runs its own. */
export type NotificationSender = Effect.Effect.Success<ReturnType<typeof makeNotificationSender>>

/**
 * The whole GoCardless sandbox: its routes, the sender of its notifications (run by `runWorker`,
 * the server's one worker loop) and the sweeper of its state, over the service's database.
 */
export const sandboxLayer = (
  options: SandboxOptions,
  runWorker: (sender: NotificationSender) => Effect.Effect<void, never, Scope.Scope>
): Layer.Layer<never, never, SqlClient.SqlClient | Clock | HttpClient.HttpClient> => {
  const background = Layer.scopedDiscard(
    Effect.gen(function* () {
      const store = yield* makeSandboxStore
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* makeNotificationOutbox(options.leaseClaim(sql, notificationRows(sql)))
      yield* runWorker(yield* makeNotificationSender(outbox, options.notifications))
      yield* Effect.forkScoped(runSandboxSweeper(store, options.retention))
    })
  )
  return Layer.mergeAll(sandboxRoutes(options.path, options.admit), background).pipe(
    Layer.provide(GoCardlessSandboxSql)
  )
}
