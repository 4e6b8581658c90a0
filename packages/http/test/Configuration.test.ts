import { LookupCacheTtl } from "@cisbook/core/LookupCache"
import { LookupCacheTtlLive } from "@cisbook/adapters/LookupCacheTtlLive"
import { AppUrl } from "@cisbook/adapters/AppLinksLive"
import { BillingTermsConfig } from "@cisbook/adapters/billing/BillingTermsLive"
import { DirectDebitConfig } from "@cisbook/adapters/gocardless/DirectDebitLive"
import { SANDBOX_NOTIFICATION_SECRET } from "@cisbook/adapters/gocardless/GoCardlessNotificationSecret"
import { NotificationSecretConfig } from "@cisbook/adapters/gocardless/GoCardlessNotificationSignature"
import { IdentityProviderConfig } from "@cisbook/adapters/identity/JwksIdentityVerifier"
import { DatabaseConfig } from "@cisbook/adapters/sql/DatabaseConfig"
import { RateLimitSettingsConfig, SandboxRateLimitConfig } from "@cisbook/adapters/ratelimits/RateLimitSettings"
import { ownCallHeaders } from "@cisbook/adapters/system/OwnCalls"
import { GOVTALK_PRODUCT_VERSION, GovTalkConfig } from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { credentialsKey } from "@cisbook/adapters/credentials/CredentialsCipher"
import { CredentialsKeyConfig, DEVELOPMENT_CREDENTIALS_KEY } from "@cisbook/adapters/credentials/CredentialsKeyConfig"
import { randomBytes } from "node:crypto"
import { TaxAuthorityLive } from "@cisbook/adapters/taxauthority/TaxAuthorityLive"
import { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import { AllowPrivateTargets } from "@cisbook/adapters/webhooks/AllowPrivateTargets"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { ListenConfig } from "../src/transport/ListenConfig.js"
import { LoggingConfig } from "../src/logging/LoggerLive.js"
import { ServerLimitsConfig } from "../src/transport/NodeServer.js"
import { SandboxConfig } from "../src/sandbox/SandboxConfig.js"
import { UploadDirectoryConfig } from "../src/uploads/UploadDirectory.js"
import { ReturnFilerConfig } from "../src/workers/ReturnFiler.js"
import { VerificationWorkerConfig } from "../src/workers/VerificationWorker.js"
import { WebhookDispatcherConfig } from "../src/workers/WebhookDispatcher.js"
import { ProviderEventsWorkerConfig } from "../src/workers/ProviderEventsWorker.js"
import { StatementDelivererConfig } from "../src/workers/StatementDeliverer.js"

import { refused, withEnv } from "./ConfigEnv.js"

describe("the settings the README documents", () => {
  it.effect("LOG_LEVEL takes the README's names and Effect's own, in any case; default Info", () =>
    Effect.gen(function* () {
      const level = (value: string) => Effect.map(withEnv({ LOG_LEVEL: value })(LoggingConfig), (c) => c.level)
      expect(yield* level("Trace")).toBe(LogLevel.Trace)
      expect(yield* level("Debug")).toBe(LogLevel.Debug)
      expect(yield* level("Info")).toBe(LogLevel.Info)
      expect(yield* level("Warning")).toBe(LogLevel.Warning)
      expect(yield* level("Error")).toBe(LogLevel.Error)
      expect(yield* level("WARN")).toBe(LogLevel.Warning)
      expect(yield* level("warning")).toBe(LogLevel.Warning)
      expect(yield* level("FATAL")).toBe(LogLevel.Fatal)
      expect(yield* level("None")).toBe(LogLevel.None)
      expect(yield* level("ALL")).toBe(LogLevel.All)
      expect((yield* withEnv({})(LoggingConfig)).level).toBe(LogLevel.Info)
      expect(yield* refused({ LOG_LEVEL: "Loud" }, LoggingConfig)).toContain(
        "Expected one of Trace, Debug, Info, Warning, Error (or Fatal, None, All) but received Loud"
      )
    })
  )

  it.effect(
    "RATE_LIMIT_AUTH_FAILURES and RATE_LIMIT_REQUESTS, each per its _WINDOW_SECONDS: 50 and 1,200 a minute; 0 is off; RATE_LIMIT_REQUESTS_SHARED",
    () =>
      Effect.gen(function* () {
        const settings = (env: Record<string, string>) => withEnv(env)(RateLimitSettingsConfig)
        expect(yield* settings({})).toEqual({
          authenticationFailures: { points: 50, window: Duration.seconds(60) },
          requests: { points: 1200, window: Duration.seconds(60), shared: false }
        })
        expect(
          yield* settings({
            RATE_LIMIT_AUTH_FAILURES: "10",
            RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS: "900",
            RATE_LIMIT_REQUESTS: "0",
            RATE_LIMIT_REQUESTS_WINDOW_SECONDS: "1",
            RATE_LIMIT_REQUESTS_SHARED: "true"
          })
        ).toEqual({
          authenticationFailures: { points: 10, window: Duration.seconds(900) },
          requests: { points: 0, window: Duration.seconds(1), shared: true }
        })
        expect(yield* refused({ RATE_LIMIT_AUTH_FAILURES: "-1" }, RateLimitSettingsConfig)).toContain(
          "Must be a whole number, 0 or more"
        )
        expect(yield* refused({ RATE_LIMIT_REQUESTS_WINDOW_SECONDS: "0" }, RateLimitSettingsConfig)).toContain(
          "Must be a whole number, 1 or more"
        )
        expect(yield* refused({ RATE_LIMIT_REQUESTS: "many" }, RateLimitSettingsConfig)).toContain(
          "RATE_LIMIT_REQUESTS"
        )
        // The sandboxes' own budget per address: 1,000 a minute, GoCardless's own limit.
        expect(yield* withEnv({})(SandboxRateLimitConfig)).toEqual({ points: 1000, window: Duration.seconds(60) })
        expect(
          yield* withEnv({ RATE_LIMIT_SANDBOX_REQUESTS: "0", RATE_LIMIT_SANDBOX_REQUESTS_WINDOW_SECONDS: "10" })(
            SandboxRateLimitConfig
          )
        ).toEqual({ points: 0, window: Duration.seconds(10) })
        expect(yield* refused({ RATE_LIMIT_SANDBOX_REQUESTS: "-5" }, SandboxRateLimitConfig)).toContain(
          "RATE_LIMIT_SANDBOX_REQUESTS"
        )
      })
  )

  it.effect("DIRECT_DEBIT_PROVIDER: the sandbox under PUBLIC_BASE_URL by default, or GoCardless with its token", () =>
    Effect.gen(function* () {
      const sandbox = yield* withEnv({})(DirectDebitConfig)
      // Its calls to the sandbox this process serves carry the process's mark, and count against no budget.
      expect(sandbox).toMatchObject({
        provider: "sandbox",
        baseUrl: "http://localhost:3000/sandbox/gocardless",
        headers: ownCallHeaders
      })
      expect(yield* withEnv({ PORT: "8080" })(DirectDebitConfig)).toMatchObject({
        baseUrl: "http://localhost:8080/sandbox/gocardless"
      })
      expect(
        yield* withEnv({ PUBLIC_BASE_URL: "https://cisbook.example/", DIRECT_DEBIT_PROVIDER: "sandbox" })(
          DirectDebitConfig
        )
      ).toMatchObject({ baseUrl: "https://cisbook.example/sandbox/gocardless" })
      const live = yield* withEnv({ DIRECT_DEBIT_PROVIDER: "gocardless", GOCARDLESS_ACCESS_TOKEN: "live_token" })(
        DirectDebitConfig
      )
      expect(live).toMatchObject({ provider: "gocardless", baseUrl: "https://api.gocardless.com", successPlus: false })
      // Success+ (GoCardless's intelligent retries) only when the account has it and says so.
      expect(
        yield* withEnv({
          DIRECT_DEBIT_PROVIDER: "gocardless",
          GOCARDLESS_ACCESS_TOKEN: "live_token",
          GOCARDLESS_SUCCESS_PLUS: "true"
        })(DirectDebitConfig)
      ).toMatchObject({ successPlus: true })
      expect(yield* refused({ GOCARDLESS_SUCCESS_PLUS: "maybe" }, DirectDebitConfig)).toContain(
        "GOCARDLESS_SUCCESS_PLUS"
      )
      expect(live.headers).toBeUndefined()
      expect(Redacted.value(live.accessToken)).toBe("live_token")
      expect(
        yield* withEnv({ DIRECT_DEBIT_PROVIDER: "gocardless", GOCARDLESS_ACCESS_TOKEN: "sandbox_token" })(
          DirectDebitConfig
        )
      ).toMatchObject({ baseUrl: "https://api-sandbox.gocardless.com", timeout: Duration.seconds(10) })
      // A proxy in front of either environment is the operator's to choose.
      expect(
        yield* withEnv({
          DIRECT_DEBIT_PROVIDER: "gocardless",
          GOCARDLESS_ACCESS_TOKEN: "live_token",
          GOCARDLESS_API_URL: "https://gocardless-proxy.internal/",
          GOCARDLESS_TIMEOUT_MS: "2500"
        })(DirectDebitConfig)
      ).toMatchObject({ baseUrl: "https://gocardless-proxy.internal/", timeout: Duration.millis(2500) })
      // GoCardless's other environment than the token's: start-up is refused, naming both.
      const contradicted = yield* refused(
        {
          DIRECT_DEBIT_PROVIDER: "gocardless",
          GOCARDLESS_ACCESS_TOKEN: "live_token",
          GOCARDLESS_API_URL: "https://api-sandbox.gocardless.com"
        },
        DirectDebitConfig
      )
      expect(contradicted).toContain("GOCARDLESS_API_URL")
      expect(contradicted).toContain("sandbox environment (https://api-sandbox.gocardless.com)")
      expect(contradicted).toContain("GOCARDLESS_ACCESS_TOKEN is a live token")
      expect(
        yield* refused(
          {
            DIRECT_DEBIT_PROVIDER: "gocardless",
            GOCARDLESS_ACCESS_TOKEN: "sandbox_token",
            GOCARDLESS_API_URL: "https://api.gocardless.com/"
          },
          DirectDebitConfig
        )
      ).toContain("GoCardless's live environment")
      expect(
        yield* refused({ DIRECT_DEBIT_PROVIDER: "gocardless", GOCARDLESS_ACCESS_TOKEN: "t" }, DirectDebitConfig)
      ).toContain("starts live_ or sandbox_")
      expect(yield* refused({ GOCARDLESS_TIMEOUT_MS: "0" }, DirectDebitConfig)).toContain("GOCARDLESS_TIMEOUT_MS")
      expect(
        yield* withEnv({
          DIRECT_DEBIT_PROVIDER: "gocardless",
          GOCARDLESS_ACCESS_TOKEN: "t",
          GOCARDLESS_API_URL: "https://api.gocardless.com"
        })(DirectDebitConfig)
      ).toMatchObject({ baseUrl: "https://api.gocardless.com" })
      expect(yield* refused({ DIRECT_DEBIT_PROVIDER: "gocardless" }, DirectDebitConfig)).toContain(
        "GOCARDLESS_ACCESS_TOKEN"
      )
      expect(yield* refused({ DIRECT_DEBIT_PROVIDER: "stripe" }, DirectDebitConfig)).toContain("DIRECT_DEBIT_PROVIDER")
    })
  )

  it.effect(
    "the sandbox's settings: webhooks to PUBLIC_BASE_URL/webhooks/gocardless signed with GOCARDLESS_WEBHOOK_SECRET; SANDBOX_RETENTION_DAYS, 30",
    () =>
      Effect.gen(function* () {
        const defaults = yield* withEnv({})(SandboxConfig)
        expect(defaults.publicBaseUrl).toBe("http://localhost:3000")
        expect(Redacted.value(defaults.notificationSecret)).toBe(SANDBOX_NOTIFICATION_SECRET)
        expect(Duration.toDays(defaults.retention)).toBe(30)
        const set = yield* withEnv({
          PUBLIC_BASE_URL: "https://cisbook.example/",
          GOCARDLESS_WEBHOOK_SECRET: "endpoint-secret",
          SANDBOX_RETENTION_DAYS: "7"
        })(SandboxConfig)
        expect(set.publicBaseUrl).toBe("https://cisbook.example")
        expect(Redacted.value(set.notificationSecret)).toBe("endpoint-secret")
        expect(Duration.toDays(set.retention)).toBe(7)
        expect(yield* refused({ SANDBOX_RETENTION_DAYS: "0" }, SandboxConfig)).toContain("SANDBOX_RETENTION_DAYS")
      })
  )

  it.effect(
    "GOCARDLESS_WEBHOOK_SECRET is required with gocardless and defaults to the development secret in sandbox mode",
    () =>
      Effect.gen(function* () {
        const secret = (env: Record<string, string>) =>
          Effect.map(withEnv(env)(NotificationSecretConfig), Redacted.value)
        expect(yield* secret({})).toBe(SANDBOX_NOTIFICATION_SECRET)
        expect(SANDBOX_NOTIFICATION_SECRET).toBe("cisbook-sandbox-webhook-secret")
        expect(yield* secret({ GOCARDLESS_WEBHOOK_SECRET: "s3cret" })).toBe("s3cret")
        expect(yield* secret({ DIRECT_DEBIT_PROVIDER: "gocardless", GOCARDLESS_WEBHOOK_SECRET: "live" })).toBe("live")
        expect(yield* refused({ DIRECT_DEBIT_PROVIDER: "gocardless" }, NotificationSecretConfig)).toContain(
          "GOCARDLESS_WEBHOOK_SECRET"
        )
      })
  )

  it.effect("PROVIDER_EVENTS_* set the provider events worker, within their bounds", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(ProviderEventsWorkerConfig)).toEqual({
        enabled: true,
        concurrency: 10,
        pollInterval: Duration.millis(1000),
        lease: Duration.seconds(60)
      })
      expect(
        yield* withEnv({
          PROVIDER_EVENTS_WORKER: "false",
          PROVIDER_EVENTS_CONCURRENCY: "500",
          PROVIDER_EVENTS_POLL_INTERVAL_MS: "10",
          PROVIDER_EVENTS_LEASE_SECONDS: "3600"
        })(ProviderEventsWorkerConfig)
      ).toEqual({ enabled: false, concurrency: 500, pollInterval: Duration.millis(10), lease: Duration.seconds(3600) })
      for (const [name, value] of [
        ["PROVIDER_EVENTS_CONCURRENCY", "0"],
        ["PROVIDER_EVENTS_CONCURRENCY", "501"],
        ["PROVIDER_EVENTS_POLL_INTERVAL_MS", "9"],
        ["PROVIDER_EVENTS_LEASE_SECONDS", "9"]
      ] as const) {
        expect(yield* refused({ [name]: value }, ProviderEventsWorkerConfig)).toContain(name)
      }
    })
  )

  it.effect("STATEMENT_DELIVERER and STATEMENT_DELIVERY_* set the statement deliverer, within their bounds", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(StatementDelivererConfig)).toEqual({
        enabled: true,
        concurrency: 20,
        pollInterval: Duration.millis(1000),
        lease: Duration.seconds(60)
      })
      expect(
        yield* withEnv({
          STATEMENT_DELIVERER: "false",
          STATEMENT_DELIVERY_CONCURRENCY: "500",
          STATEMENT_DELIVERY_POLL_INTERVAL_MS: "10",
          STATEMENT_DELIVERY_LEASE_SECONDS: "3600"
        })(StatementDelivererConfig)
      ).toEqual({ enabled: false, concurrency: 500, pollInterval: Duration.millis(10), lease: Duration.seconds(3600) })
      for (const [name, value] of [
        ["STATEMENT_DELIVERY_CONCURRENCY", "0"],
        ["STATEMENT_DELIVERY_CONCURRENCY", "501"],
        ["STATEMENT_DELIVERY_POLL_INTERVAL_MS", "9"],
        ["STATEMENT_DELIVERY_LEASE_SECONDS", "9"],
        ["STATEMENT_DELIVERER", "sometimes"]
      ] as const) {
        expect(yield* refused({ [name]: value }, StatementDelivererConfig)).toContain(name)
      }
    })
  )

  it.effect("LOG_FORMAT is logfmt or json; default logfmt", () =>
    Effect.gen(function* () {
      const format = (env: Record<string, string>) => Effect.map(withEnv(env)(LoggingConfig), (c) => c.format)
      expect(yield* format({ LOG_FORMAT: "json" })).toBe("json")
      expect(yield* format({ LOG_FORMAT: "logfmt" })).toBe("logfmt")
      expect(yield* format({})).toBe("logfmt")
      expect(yield* refused({ LOG_FORMAT: "xml" }, LoggingConfig)).toContain("LOG_FORMAT")
    })
  )

  it.effect("PORT and HOST; default 3000 and 0.0.0.0", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(ListenConfig)).toEqual({ port: 3000, host: "0.0.0.0" })
      expect(yield* withEnv({ PORT: "8080", HOST: "127.0.0.1" })(ListenConfig)).toEqual({
        port: 8080,
        host: "127.0.0.1"
      })
      expect(yield* refused({ PORT: "70000" }, ListenConfig)).toContain("PORT")
      expect(yield* refused({ PORT: "http" }, ListenConfig)).toContain("PORT")
    })
  )

  it.effect(
    "DATABASE_URL chooses a PostgreSQL server; without it (or blank) the embedded database in DATA_DIR, default ./data",
    () =>
      Effect.gen(function* () {
        const url = "postgres://postgres@127.0.0.1:5432/cisbook"
        const server = yield* withEnv({ DATABASE_URL: url, DATA_DIR: "/var/cisbook" })(DatabaseConfig)
        expect(server._tag === "Server" && Redacted.value(server.url)).toBe(url)
        expect(yield* withEnv({})(DatabaseConfig)).toEqual({ _tag: "Embedded", dataDir: "./data" })
        expect(yield* withEnv({ DATABASE_URL: " ", DATA_DIR: "/var/cisbook" })(DatabaseConfig)).toEqual({
          _tag: "Embedded",
          dataDir: "/var/cisbook"
        })
      })
  )

  it.effect(
    "AUTH_JWKS_URL turns bearer tokens on and then needs AUTH_ISSUER and AUTH_AUDIENCE; AUTH_CLOCK_SKEW_SECONDS 0 to 60, default 30; off by default",
    () =>
      Effect.gen(function* () {
        expect(yield* withEnv({})(IdentityProviderConfig)).toEqual(Option.none())
        const jwks = "https://id.example.com/.well-known/jwks.json"
        expect(
          yield* withEnv({ AUTH_JWKS_URL: jwks, AUTH_ISSUER: "https://id.example.com/", AUTH_AUDIENCE: "cisbook" })(
            IdentityProviderConfig
          )
        ).toEqual(
          Option.some({
            jwksUrl: new URL(jwks),
            issuer: "https://id.example.com/",
            audience: "cisbook",
            clockSkewSeconds: 30
          })
        )
        expect(yield* refused({ AUTH_JWKS_URL: jwks, AUTH_AUDIENCE: "cisbook" }, IdentityProviderConfig)).toContain(
          "AUTH_ISSUER"
        )
        expect(
          yield* refused({ AUTH_JWKS_URL: jwks, AUTH_ISSUER: "https://id.example.com/" }, IdentityProviderConfig)
        ).toContain("AUTH_AUDIENCE")
        expect(yield* refused({ AUTH_JWKS_URL: "not a url" }, IdentityProviderConfig)).toContain("AUTH_JWKS_URL")
        const provider = { AUTH_JWKS_URL: jwks, AUTH_ISSUER: "https://id.example.com/", AUTH_AUDIENCE: "cisbook" }
        const skew = (value: string) =>
          Effect.map(withEnv({ ...provider, AUTH_CLOCK_SKEW_SECONDS: value })(IdentityProviderConfig), (config) =>
            Option.map(config, (c) => c.clockSkewSeconds)
          )
        expect(yield* skew("0")).toEqual(Option.some(0))
        expect(yield* skew("60")).toEqual(Option.some(60))
        for (const value of ["61", "-1", "ten"]) {
          expect(yield* refused({ ...provider, AUTH_CLOCK_SKEW_SECONDS: value }, IdentityProviderConfig)).toContain(
            "AUTH_CLOCK_SKEW_SECONDS"
          )
        }
      })
  )

  it.effect("AUTH_CACHE_SECONDS is 0 or more seconds; default 10", () =>
    Effect.gen(function* () {
      const ttl = (env: Record<string, string>) => withEnv(env)(Effect.provide(LookupCacheTtl, LookupCacheTtlLive))
      expect(yield* ttl({})).toEqual(Duration.seconds(10))
      expect(yield* ttl({ AUTH_CACHE_SECONDS: "0" })).toEqual(Duration.seconds(0))
      expect(yield* ttl({ AUTH_CACHE_SECONDS: "300" })).toEqual(Duration.seconds(300))
      expect(
        yield* refused({ AUTH_CACHE_SECONDS: "-1" }, Effect.provide(LookupCacheTtl, LookupCacheTtlLive))
      ).toContain("must be 0 or more")
    })
  )

  it.effect("WEBHOOK_ALLOW_PRIVATE_TARGETS is true or false; default false", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(AllowPrivateTargets)).toBe(false)
      expect(yield* withEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })(AllowPrivateTargets)).toBe(true)
      expect(yield* withEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" })(AllowPrivateTargets)).toBe(false)
      expect(yield* refused({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "maybe" }, AllowPrivateTargets)).toContain(
        "WEBHOOK_ALLOW_PRIVATE_TARGETS"
      )
    })
  )

  it.effect(
    "WEBHOOK_DISPATCHER, _CONCURRENCY (1–1000), _POLL_INTERVAL_MS (10–60000) and _LEASE_SECONDS (30–3600); defaults true, 50, 1000, 60",
    () =>
      Effect.gen(function* () {
        expect(yield* withEnv({})(WebhookDispatcherConfig)).toEqual({
          enabled: true,
          concurrency: 50,
          pollInterval: Duration.millis(1000),
          lease: Duration.seconds(60)
        })
        expect(
          yield* withEnv({
            WEBHOOK_DISPATCHER: "false",
            WEBHOOK_CONCURRENCY: "1000",
            WEBHOOK_POLL_INTERVAL_MS: "250",
            WEBHOOK_LEASE_SECONDS: "30"
          })(WebhookDispatcherConfig)
        ).toEqual({
          enabled: false,
          concurrency: 1000,
          pollInterval: Duration.millis(250),
          lease: Duration.seconds(30)
        })
        expect(
          (yield* withEnv({ WEBHOOK_CONCURRENCY: "1", WEBHOOK_LEASE_SECONDS: "3600" })(WebhookDispatcherConfig)).lease
        ).toEqual(Duration.seconds(3600))
        expect(yield* refused({ WEBHOOK_CONCURRENCY: "0" }, WebhookDispatcherConfig)).toContain(
          "Must be a whole number from 1 to 1000"
        )
        expect(yield* refused({ WEBHOOK_CONCURRENCY: "1001" }, WebhookDispatcherConfig)).toContain("from 1 to 1000")
        expect(yield* refused({ WEBHOOK_LEASE_SECONDS: "29" }, WebhookDispatcherConfig)).toContain("from 30 to 3600")
        expect(yield* refused({ WEBHOOK_LEASE_SECONDS: "3601" }, WebhookDispatcherConfig)).toContain("from 30 to 3600")
        expect(yield* refused({ WEBHOOK_POLL_INTERVAL_MS: "9" }, WebhookDispatcherConfig)).toContain("from 10 to 60000")
        expect(yield* refused({ WEBHOOK_POLL_INTERVAL_MS: "60001" }, WebhookDispatcherConfig)).toContain(
          "from 10 to 60000"
        )
        expect(yield* refused({ WEBHOOK_DISPATCHER: "sometimes" }, WebhookDispatcherConfig)).toContain(
          "WEBHOOK_DISPATCHER"
        )
      })
  )

  it.effect(
    "RETURN_FILER, _CONCURRENCY (1–200), _POLL_INTERVAL_MS (10–60000) and _LEASE_SECONDS (60–3600); defaults true, 10, 1000, 300",
    () =>
      Effect.gen(function* () {
        expect(yield* withEnv({})(ReturnFilerConfig)).toEqual({
          enabled: true,
          concurrency: 10,
          pollInterval: Duration.millis(1000),
          lease: Duration.seconds(300)
        })
        expect(
          yield* withEnv({
            RETURN_FILER: "false",
            RETURN_CONCURRENCY: "200",
            RETURN_POLL_INTERVAL_MS: "10",
            RETURN_LEASE_SECONDS: "60"
          })(ReturnFilerConfig)
        ).toEqual({ enabled: false, concurrency: 200, pollInterval: Duration.millis(10), lease: Duration.seconds(60) })
        expect(yield* refused({ RETURN_CONCURRENCY: "0" }, ReturnFilerConfig)).toContain("from 1 to 200")
        expect(yield* refused({ RETURN_CONCURRENCY: "201" }, ReturnFilerConfig)).toContain("from 1 to 200")
        expect(yield* refused({ RETURN_LEASE_SECONDS: "59" }, ReturnFilerConfig)).toContain("from 60 to 3600")
        expect(yield* refused({ RETURN_LEASE_SECONDS: "3601" }, ReturnFilerConfig)).toContain("from 60 to 3600")
        expect(yield* refused({ RETURN_POLL_INTERVAL_MS: "60001" }, ReturnFilerConfig)).toContain("from 10 to 60000")
        expect(yield* refused({ RETURN_FILER: "sometimes" }, ReturnFilerConfig)).toContain("RETURN_FILER")
      })
  )

  it.effect(
    "BILLING_PRICE_PER_SUBCONTRACTOR (pounds, default 1.00), BILLING_COMPANY_NAME, BILLING_COMPANY_ADDRESS and BILLING_VAT_NUMBER",
    () =>
      Effect.gen(function* () {
        expect(yield* withEnv({})(BillingTermsConfig)).toEqual({
          pricePerSubcontractor: 100,
          seller: { name: "cisbook Ltd", address: ["1 Example Street", "London", "EC1A 1BB"], vatNumber: "GB123456789" }
        })
        const set = yield* withEnv({
          BILLING_PRICE_PER_SUBCONTRACTOR: "2.5",
          BILLING_COMPANY_NAME: "Cisbook Software Ltd",
          BILLING_COMPANY_ADDRESS: "Unit 4, Harbour Yard\nBristol\n BS1 5TY ",
          BILLING_VAT_NUMBER: "GB 987 6543 21"
        })(BillingTermsConfig)
        expect(set).toEqual({
          pricePerSubcontractor: 250,
          seller: {
            name: "Cisbook Software Ltd",
            address: ["Unit 4", "Harbour Yard", "Bristol", "BS1 5TY"],
            vatNumber: "GB 987 6543 21"
          }
        })
        expect(
          (yield* withEnv({ BILLING_PRICE_PER_SUBCONTRACTOR: "0" })(BillingTermsConfig)).pricePerSubcontractor
        ).toBe(0)
        for (const bad of ["1.005", "-1", "one pound", ""]) {
          expect(yield* refused({ BILLING_PRICE_PER_SUBCONTRACTOR: bad }, BillingTermsConfig)).toContain(
            "BILLING_PRICE_PER_SUBCONTRACTOR"
          )
        }
      })
  )

  it.effect(
    "HTTP_HEADERS_TIMEOUT_MS (100–300000), HTTP_REQUEST_TIMEOUT_MS (100–3600000), HTTP_KEEP_ALIVE_TIMEOUT_MS (100–600000) and HTTP_MAX_CONNECTIONS (1–1000000); defaults 10000, 120000, 5000, 2000",
    () =>
      Effect.gen(function* () {
        expect(yield* withEnv({})(ServerLimitsConfig)).toEqual({
          headersTimeoutMs: 10_000,
          requestTimeoutMs: 120_000,
          keepAliveTimeoutMs: 5_000,
          maxConnections: 2_000
        })
        expect(
          yield* withEnv({
            HTTP_HEADERS_TIMEOUT_MS: "100",
            HTTP_REQUEST_TIMEOUT_MS: "3600000",
            HTTP_KEEP_ALIVE_TIMEOUT_MS: "600000",
            HTTP_MAX_CONNECTIONS: "1"
          })(ServerLimitsConfig)
        ).toEqual({
          headersTimeoutMs: 100,
          requestTimeoutMs: 3_600_000,
          keepAliveTimeoutMs: 600_000,
          maxConnections: 1
        })
        const outside: ReadonlyArray<readonly [string, string, string]> = [
          ["HTTP_HEADERS_TIMEOUT_MS", "99", "between 100 and 300000"],
          ["HTTP_HEADERS_TIMEOUT_MS", "300001", "between 100 and 300000"],
          ["HTTP_REQUEST_TIMEOUT_MS", "3600001", "between 100 and 3600000"],
          ["HTTP_KEEP_ALIVE_TIMEOUT_MS", "600001", "between 100 and 600000"],
          ["HTTP_MAX_CONNECTIONS", "0", "between 1 and 1000000"],
          ["HTTP_MAX_CONNECTIONS", "1000001", "between 1 and 1000000"]
        ]
        for (const [name, value, message] of outside) {
          expect(yield* refused({ [name]: value }, ServerLimitsConfig)).toContain(`${name} must be ${message}`)
        }
        expect(yield* refused({ HTTP_MAX_CONNECTIONS: "many" }, ServerLimitsConfig)).toContain("HTTP_MAX_CONNECTIONS")
      })
  )

  it.effect(
    "VERIFICATION_WORKER, _CONCURRENCY (1–500), _POLL_INTERVAL_MS (10–60000) and _LEASE_SECONDS (30–3600); defaults true, 20, 1000, 120",
    () =>
      Effect.gen(function* () {
        expect(yield* withEnv({})(VerificationWorkerConfig)).toEqual({
          enabled: true,
          concurrency: 20,
          pollInterval: Duration.millis(1000),
          lease: Duration.seconds(120)
        })
        expect(
          yield* withEnv({
            VERIFICATION_WORKER: "false",
            VERIFICATION_CONCURRENCY: "500",
            VERIFICATION_POLL_INTERVAL_MS: "10",
            VERIFICATION_LEASE_SECONDS: "3600"
          })(VerificationWorkerConfig)
        ).toEqual({
          enabled: false,
          concurrency: 500,
          pollInterval: Duration.millis(10),
          lease: Duration.seconds(3600)
        })
        expect(yield* refused({ VERIFICATION_CONCURRENCY: "0" }, VerificationWorkerConfig)).toContain("from 1 to 500")
        expect(yield* refused({ VERIFICATION_CONCURRENCY: "501" }, VerificationWorkerConfig)).toContain("from 1 to 500")
        expect(yield* refused({ VERIFICATION_POLL_INTERVAL_MS: "9" }, VerificationWorkerConfig)).toContain(
          "from 10 to 60000"
        )
        expect(yield* refused({ VERIFICATION_LEASE_SECONDS: "29" }, VerificationWorkerConfig)).toContain(
          "from 30 to 3600"
        )
        expect(yield* refused({ VERIFICATION_LEASE_SECONDS: "3601" }, VerificationWorkerConfig)).toContain(
          "from 30 to 3600"
        )
        expect(yield* refused({ VERIFICATION_WORKER: "sometimes" }, VerificationWorkerConfig)).toContain(
          "VERIFICATION_WORKER"
        )
      })
  )

  it.effect(
    "GOVTALK_TEST=true sends as tests (GatewayTest 1); pointed at HMRC's live engine, the start warns that nothing is filed",
    () =>
      Effect.gen(function* () {
        const live = {
          TAX_AUTHORITY: "govtalk",
          GOVTALK_URL: "https://transaction-engine.tax.service.gov.uk/submission",
          GOVTALK_VENDOR_ID: "8472",
          GOVTALK_TEST: "true",
          CREDENTIALS_KEY: randomBytes(32).toString("base64")
        }
        const warnings = (env: Record<string, string>) =>
          Effect.gen(function* () {
            const lines: Array<string> = []
            const logger = Logger.replace(
              Logger.defaultLogger,
              Logger.make(({ logLevel, message }) => {
                if (logLevel._tag === "Warning") lines.push(String(message))
              })
            )
            yield* withEnv(env)(Effect.scoped(Layer.build(TaxAuthorityLive))).pipe(Effect.provide(logger))
            return lines
          })
        const [warning, ...more] = yield* warnings(live)
        expect(more).toEqual([])
        expect(warning).toContain("GOVTALK_TEST=true")
        expect(warning).toContain("files nothing")
        // The External Test Service, or live without GOVTALK_TEST: no such warning.
        expect(
          yield* warnings({ ...live, GOVTALK_URL: "https://test-transaction-engine.tax.service.gov.uk/submission" })
        ).toEqual([])
        expect(yield* warnings({ ...live, GOVTALK_TEST: "false" })).toEqual([])
        expect((yield* withEnv(live)(GovTalkConfig)).software.gatewayTest).toBe(true)
        // The sandbox sends for real unless GOVTALK_TEST says otherwise.
        expect((yield* withEnv({})(GovTalkConfig)).software.gatewayTest).toBe(false)
        expect((yield* withEnv({ GOVTALK_TEST: "true" })(GovTalkConfig)).software.gatewayTest).toBe(true)
      })
  )

  it.effect("TAX_AUTHORITY is sandbox, the default; any other value stops the start", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(GovTalkConfig)).toMatchObject({ authority: "sandbox", headers: ownCallHeaders })
      expect(yield* withEnv({ TAX_AUTHORITY: "sandbox" })(GovTalkConfig)).toMatchObject({ authority: "sandbox" })
      expect(yield* refused({ TAX_AUTHORITY: "hmrc" }, Effect.scoped(Layer.build(TaxAuthorityLive)))).toContain(
        "TAX_AUTHORITY"
      )
      // The sandbox is the local Transaction Engine under PUBLIC_BASE_URL.
      expect(yield* withEnv({ PUBLIC_BASE_URL: "https://books.example.com/" })(GovTalkConfig)).toMatchObject({
        authority: "sandbox",
        url: "https://books.example.com/sandbox/govtalk/submission"
      })
    })
  )

  it.effect(
    "TAX_AUTHORITY=govtalk needs GOVTALK_URL, GOVTALK_VENDOR_ID, GOVTALK_TEST and CREDENTIALS_KEY; GOVTALK_PRODUCT(_VERSION) name the software",
    () =>
      Effect.gen(function* () {
        const key = randomBytes(32).toString("base64")
        const all = {
          TAX_AUTHORITY: "govtalk",
          GOVTALK_URL: "https://test-transaction-engine.tax.service.gov.uk/submission",
          GOVTALK_VENDOR_ID: "8472",
          GOVTALK_TEST: "true",
          CREDENTIALS_KEY: key
        }
        const config = yield* withEnv(all)(GovTalkConfig)
        expect(config.headers).toBeUndefined()
        expect(config).toMatchObject({
          authority: "govtalk",
          url: "https://test-transaction-engine.tax.service.gov.uk/submission",
          software: { vendorId: "8472", gatewayTest: true, product: "cisbook", version: GOVTALK_PRODUCT_VERSION }
        })
        // The version registered with HMRC, not the package's, which changes with every release.
        expect(GOVTALK_PRODUCT_VERSION).toBe("1.0")
        expect(
          yield* withEnv({ ...all, GOVTALK_PRODUCT: "Lovelace CIS", GOVTALK_PRODUCT_VERSION: "2.3" })(GovTalkConfig)
        ).toMatchObject({ software: { product: "Lovelace CIS", version: "2.3" } })
        expect(
          Option.isSome(
            yield* withEnv(all)(
              Effect.scoped(Effect.map(Layer.build(TaxAuthorityLive), Context.getOption(TaxAuthority)))
            )
          )
        ).toBe(true)
        for (const missing of ["GOVTALK_URL", "GOVTALK_VENDOR_ID", "GOVTALK_TEST"]) {
          const { [missing]: _, ...rest } = all as Record<string, string>
          expect(yield* refused(rest, Effect.scoped(Layer.build(TaxAuthorityLive)))).toContain(missing)
        }
        const { CREDENTIALS_KEY: _, ...keyless } = all
        expect(yield* refused(keyless, CredentialsKeyConfig)).toContain("CREDENTIALS_KEY")
        expect(yield* refused({ ...all, CREDENTIALS_KEY: "c2hvcnQ=" }, CredentialsKeyConfig)).toContain(
          "32 random bytes"
        )
        // In sandbox mode the development key stands in; a configured key is used.
        const sandbox = yield* withEnv({})(CredentialsKeyConfig)
        expect(sandbox.current.id).toBe(credentialsKey(DEVELOPMENT_CREDENTIALS_KEY).id)
        expect((yield* withEnv({ CREDENTIALS_KEY: key })(CredentialsKeyConfig)).current.id).not.toBe(sandbox.current.id)
        expect(yield* refused({ ...all, GOVTALK_VENDOR_ID: "84721" }, GovTalkConfig)).toContain("4-character vendor id")
        expect(yield* refused({ ...all, GOVTALK_TEST: "maybe" }, GovTalkConfig)).toContain("GOVTALK_TEST")
        expect(yield* refused({ ...all, GOVTALK_URL: "not a url" }, GovTalkConfig)).toContain("GOVTALK_URL")
        // The retired single credential is ignored: the configuration is the same with it.
        expect(
          yield* withEnv({ ...all, GOVTALK_SENDER_ID: "CISBOOK1", GOVTALK_PASSWORD: "s3cret" })(GovTalkConfig)
        ).toEqual(config)
      })
  )

  it.effect("UPLOAD_DIR; default ./data/uploads", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(UploadDirectoryConfig)).toBe("./data/uploads")
      expect(yield* withEnv({ UPLOAD_DIR: "/var/tmp/cisbook-uploads" })(UploadDirectoryConfig)).toBe(
        "/var/tmp/cisbook-uploads"
      )
    })
  )

  it.effect("APP_URL; default PUBLIC_BASE_URL, else http://localhost:$PORT; a trailing slash dropped", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(AppUrl)).toBe("http://localhost:3000")
      expect(yield* withEnv({ PORT: "8080" })(AppUrl)).toBe("http://localhost:8080")
      expect(yield* withEnv({ PUBLIC_BASE_URL: "https://api.cisbook.example/", PORT: "8080" })(AppUrl)).toBe(
        "https://api.cisbook.example"
      )
      expect(
        yield* withEnv({ APP_URL: "https://app.cisbook.example/", PUBLIC_BASE_URL: "https://api.cisbook.example" })(
          AppUrl
        )
      ).toBe("https://app.cisbook.example")
    })
  )
})
