import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { Config, ConfigError, Effect, Either, Layer, Redacted } from "effect"
import type { GoCardlessCaller, GoCardlessOptions } from "./GoCardlessDirectDebit.js"
import { onFirstCall } from "../OnFirstCall.js"
import { ownCallHeaders } from "../system/OwnCalls.js"
import { SANDBOX_PATH } from "./SandboxPath.js"
import { TimeoutConfig } from "./GoCardlessTimeout.js"

/** GoCardless's two environments: the token's prefix says which one it belongs to. */
const ENVIRONMENTS = {
  live: "https://api.gocardless.com",
  sandbox: "https://api-sandbox.gocardless.com"
} as const

type Environment = keyof typeof ENVIRONMENTS

const environmentOfToken = (token: string): Environment | null =>
  token.startsWith("live_") ? "live" : token.startsWith("sandbox_") ? "sandbox" : null

const environmentOfUrl = (url: string): Environment | null => {
  const host = URL.canParse(url) ? new URL(url).host : ""
  return host === "api.gocardless.com" ? "live" : host === "api-sandbox.gocardless.com" ? "sandbox" : null
}

/**
 * GoCardless's base URL: GOCARDLESS_API_URL when set (a proxy, a local fake), else the one of
 * the token's environment (`live_` → live, `sandbox_` → sandbox). A URL of GoCardless's other
 * environment than the token's is refused, naming both: it could only fail, or take live money
 * with a test setup.
 */
export const goCardlessBaseUrl = (
  token: string,
  override: string | null
): Either.Either<string, ConfigError.ConfigError> => {
  const tokenEnvironment = environmentOfToken(token)
  if (override === null) {
    return tokenEnvironment === null
      ? Either.left(
          ConfigError.InvalidData(
            ["GOCARDLESS_ACCESS_TOKEN"],
            "A GoCardless access token starts live_ or sandbox_; set GOCARDLESS_API_URL to use another."
          )
        )
      : Either.right(ENVIRONMENTS[tokenEnvironment])
  }
  const urlEnvironment = environmentOfUrl(override)
  if (tokenEnvironment !== null && urlEnvironment !== null && urlEnvironment !== tokenEnvironment) {
    return Either.left(
      ConfigError.InvalidData(
        ["GOCARDLESS_API_URL"],
        `GOCARDLESS_API_URL is GoCardless's ${urlEnvironment} environment (${override}), but GOCARDLESS_ACCESS_TOKEN is a ${tokenEnvironment} token (${tokenEnvironment}_...): use ${ENVIRONMENTS[tokenEnvironment]} or a ${urlEnvironment}_ token.`
      )
    )
  }
  return Either.right(override)
}

/**
 * GOCARDLESS_SUCCESS_PLUS: the GoCardless account has Success+ (intelligent retries); payments
 * then ask for them (`retry_if_possible: true`). False unless set.
 */
const SuccessPlusConfig = Config.withDefault(Config.boolean("GOCARDLESS_SUCCESS_PLUS"), false)

/**
 * Where the GoCardless adapter goes. DIRECT_DEBIT_PROVIDER=gocardless: GoCardless itself
 * (the environment of GOCARDLESS_ACCESS_TOKEN, or GOCARDLESS_API_URL); =sandbox (the default):
 * the GoCardless-compatible sandbox the server serves under PUBLIC_BASE_URL.
 */
export const DirectDebitConfig: Effect.Effect<
  GoCardlessOptions & { readonly provider: "sandbox" | "gocardless" },
  ConfigError.ConfigError
> = Effect.gen(function* () {
  const provider = yield* Config.withDefault(
    Config.literal("sandbox", "gocardless")("DIRECT_DEBIT_PROVIDER"),
    "sandbox"
  )
  const timeout = yield* TimeoutConfig
  const successPlus = yield* SuccessPlusConfig
  if (provider === "gocardless") {
    const accessToken = yield* Config.redacted("GOCARDLESS_ACCESS_TOKEN")
    const override = yield* Config.option(Config.string("GOCARDLESS_API_URL"))
    const baseUrl = yield* goCardlessBaseUrl(
      Redacted.value(accessToken),
      override._tag === "Some" && override.value.trim() !== "" ? override.value.trim() : null
    )
    return { provider, baseUrl, accessToken, timeout, successPlus }
  }
  const port = yield* Config.withDefault(Config.port("PORT"), 3000)
  const publicBaseUrl = yield* Config.withDefault(Config.string("PUBLIC_BASE_URL"), `http://localhost:${port}`)
  return {
    provider,
    baseUrl: `${publicBaseUrl.replace(/\/+$/, "")}${SANDBOX_PATH}`,
    // The sandbox accepts any bearer token.
    accessToken: Redacted.make("sandbox"),
    // Calls to the sandbox this process serves count against no client's budget.
    headers: ownCallHeaders,
    timeout,
    successPlus
  }
})

const directDebitLive = (caller: GoCardlessCaller) =>
  Layer.unwrapEffect(
    Effect.map(DirectDebitConfig, (options) =>
      onFirstCall(DirectDebit, async () => {
        const [{ goCardlessDirectDebit }, { measuredPort }] = await Promise.all([
          import("./GoCardlessDirectDebit.js"),
          import("../metrics/ProviderCallMetrics.js")
        ])
        return goCardlessDirectDebit({ ...options, caller }).pipe(measuredPort(DirectDebit, "gocardless"))
      })
    )
  )

/**
 * Direct debits through GoCardless's API (see DirectDebitConfig), every call measured, for users'
 * requests and the server's workers. The configuration is read, and refused, when the layer is
 * built; the adapter, with its HTTP client and its metrics, is imported at the first call (see
 * onFirstCall). The layer is one client, with one budget of GoCardless's rate limit, for every
 * caller it is provided to.
 */
export const DirectDebitLive = directDebitLive("interactive")

/**
 * DirectDebitLive for bulk work (the billing run): it leaves a tenth of GoCardless's rate limit
 * to users' requests, and waits out the limit's reset rather than give up (see bulkPolicy).
 */
export const DirectDebitBulkLive = directDebitLive("bulk")
