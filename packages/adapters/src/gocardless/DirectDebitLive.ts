import { Config, Effect, Layer, Redacted } from "effect"
import { goCardlessDirectDebit } from "./GoCardlessDirectDebit.js"
import { SANDBOX_PATH } from "./sandbox/SandboxPath.js"

/**
 * DIRECT_DEBIT_PROVIDER=gocardless talks to GoCardless (GOCARDLESS_API_URL, by default its
 * sandbox; GOCARDLESS_ACCESS_TOKEN); =sandbox (the default) points the same adapter at the
 * GoCardless-compatible sandbox the server serves under PUBLIC_BASE_URL.
 */
export const DirectDebitLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const provider = yield* Config.withDefault(
      Config.literal("sandbox", "gocardless")("DIRECT_DEBIT_PROVIDER"),
      "sandbox"
    )
    if (provider === "gocardless") {
      return goCardlessDirectDebit({
        baseUrl: yield* Config.withDefault(Config.string("GOCARDLESS_API_URL"), "https://api-sandbox.gocardless.com"),
        accessToken: yield* Config.redacted("GOCARDLESS_ACCESS_TOKEN")
      })
    }
    const port = yield* Config.withDefault(Config.port("PORT"), 3000)
    const publicBaseUrl = yield* Config.withDefault(Config.string("PUBLIC_BASE_URL"), `http://localhost:${port}`)
    return goCardlessDirectDebit({
      baseUrl: `${publicBaseUrl.replace(/\/+$/, "")}${SANDBOX_PATH}`,
      accessToken: Redacted.make("sandbox")
    })
  })
)
