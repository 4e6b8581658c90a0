import type { Clock } from "@cisbook/core/system/Clock"
import type { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { type Duration, Effect, Layer, type Scope } from "effect"
import { GoCardlessSandboxSql } from "./GoCardlessSandbox.js"
import { runSandboxSweeper } from "./SandboxRetention.js"
import { type Admission, sandboxRoutes } from "./SandboxRoutes.js"
import { makeSandboxStore, makeWebhookOutbox, type WebhookLeases, webhookRows } from "./SandboxStore.js"
import { makeWebhookSender, type WebhookOptions } from "./SandboxWebhooks.js"

export interface SandboxOptions {
  /** Where the server serves it (`/sandbox/gocardless`). */
  readonly path: string
  /** The per-address rate limit its requests count against. */
  readonly admit: Admission
  readonly webhooks: WebhookOptions
  /** The server's one lease-claim helper, which claims the sandbox's webhooks as it claims every job's rows. */
  readonly leaseClaim: (sql: SqlClient.SqlClient, rows: ReturnType<typeof webhookRows>) => WebhookLeases
  /** How long it keeps what it made (SANDBOX_RETENTION_DAYS). */
  readonly retention: Duration.Duration
}

/** The webhook sender in the shape of the server's workers, for the server to run as it runs its own. */
export type WebhookSender = Effect.Effect.Success<ReturnType<typeof makeWebhookSender>>

/**
 * The whole GoCardless sandbox: its routes, the sender of its webhooks (run by `runWorker`,
 * the server's one worker loop) and the sweeper of its state, over the service's database.
 */
export const sandboxLayer = (
  options: SandboxOptions,
  runWorker: (sender: WebhookSender) => Effect.Effect<void, never, Scope.Scope>
): Layer.Layer<never, never, SqlClient.SqlClient | Clock | HttpClient.HttpClient> => {
  const background = Layer.scopedDiscard(
    Effect.gen(function* () {
      const store = yield* makeSandboxStore
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* makeWebhookOutbox(options.leaseClaim(sql, webhookRows(sql)))
      yield* runWorker(yield* makeWebhookSender(outbox, options.webhooks))
      yield* Effect.forkScoped(runSandboxSweeper(store, options.retention))
    })
  )
  return Layer.mergeAll(sandboxRoutes(options.path, options.admit), background).pipe(
    Layer.provide(GoCardlessSandboxSql)
  )
}
