import { Config, type ConfigError, Effect, Layer, Redacted } from "effect"
import { goCardlessDirectDebit, type GoCardlessOptions } from "./GoCardlessDirectDebit.js"
import { ownCallHeaders } from "../system/OwnCalls.js"
import { SANDBOX_PATH } from "./SandboxPath.js"

/**
 * Where the GoCardless adapter goes. DIRECT_DEBIT_PROVIDER=gocardless: GoCardless itself
 * (GOCARDLESS_API_URL, by default its sandbox; GOCARDLESS_ACCESS_TOKEN required); =sandbox (the
 * default): the GoCardless-compatible sandbox the server serves under PUBLIC_BASE_URL.
 */
export const DirectDebitConfig: Effect.Effect<
  GoCardlessOptions & { readonly provider: "sandbox" | "gocardless" },
  ConfigError.ConfigError
> = Effect.gen(function* () {
  const provider = yield* Config.withDefault(
    Config.literal("sandbox", "gocardless")("DIRECT_DEBIT_PROVIDER"),
    "sandbox"
  )
  if (provider === "gocardless") {
    return {
      provider,
      baseUrl: yield* Config.withDefault(Config.string("GOCARDLESS_API_URL"), "https://api-sandbox.gocardless.com"),
      accessToken: yield* Config.redacted("GOCARDLESS_ACCESS_TOKEN")
    }
  }
  const port = yield* Config.withDefault(Config.port("PORT"), 3000)
  const publicBaseUrl = yield* Config.withDefault(Config.string("PUBLIC_BASE_URL"), `http://localhost:${port}`)
  return {
    provider,
    baseUrl: `${publicBaseUrl.replace(/\/+$/, "")}${SANDBOX_PATH}`,
    // The sandbox accepts any bearer token.
    accessToken: Redacted.make("sandbox"),
    // Calls to the sandbox this process serves count against no client's budget.
    headers: ownCallHeaders
  }
})

export const DirectDebitLive = Layer.unwrapEffect(Effect.map(DirectDebitConfig, goCardlessDirectDebit))
