import { NotificationSecretConfig } from "@cisbook/adapters/gocardless/GoCardlessNotificationSignature"
import { Config, Duration, Effect } from "effect"
import { wholeNumberBetween } from "../workers/WholeNumberConfig.js"

/**
 * The sandbox's settings (DIRECT_DEBIT_PROVIDER=sandbox): where its notifications go
 * (`{PUBLIC_BASE_URL}/webhooks/gocardless`), the secret they are signed with
 * (GOCARDLESS_WEBHOOK_SECRET) and how long it keeps what it made (SANDBOX_RETENTION_DAYS, 30).
 */
export const SandboxConfig = Effect.all({
  publicBaseUrl: Config.string("PUBLIC_BASE_URL").pipe(
    Config.orElse(() =>
      Config.map(Config.withDefault(Config.port("PORT"), 3000), (port) => `http://localhost:${port}`)
    ),
    Config.map((url) => url.replace(/\/+$/, ""))
  ),
  // The secret the service checks GoCardless's notifications with, so that it accepts the sandbox's.
  notificationSecret: NotificationSecretConfig,
  retention: Config.map(wholeNumberBetween("SANDBOX_RETENTION_DAYS", 30, 1, 3650), Duration.days)
})
