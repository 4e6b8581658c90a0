import { Config, Duration, Redacted } from "effect"
import { wholeNumberBetween } from "../workers/WholeNumberConfig.js"

/** The webhook secret the sandbox signs with when GOCARDLESS_WEBHOOK_SECRET is not set (development only). */
export const SANDBOX_WEBHOOK_SECRET = "cisbook-sandbox-webhook-secret"

/**
 * The sandbox's settings (DIRECT_DEBIT_PROVIDER=sandbox): where its webhooks go
 * (`{PUBLIC_BASE_URL}/webhooks/gocardless`), the secret they are signed with
 * (GOCARDLESS_WEBHOOK_SECRET) and how long it keeps what it made (SANDBOX_RETENTION_DAYS, 30).
 */
export const SandboxConfig = Config.all({
  publicBaseUrl: Config.string("PUBLIC_BASE_URL").pipe(
    Config.orElse(() =>
      Config.map(Config.withDefault(Config.port("PORT"), 3000), (port) => `http://localhost:${port}`)
    ),
    Config.map((url) => url.replace(/\/+$/, ""))
  ),
  webhookSecret: Config.withDefault(
    Config.redacted("GOCARDLESS_WEBHOOK_SECRET"),
    Redacted.make(SANDBOX_WEBHOOK_SECRET)
  ),
  retention: Config.map(wholeNumberBetween("SANDBOX_RETENTION_DAYS", 30, 1, 3650), Duration.days)
})
