import { Config, ConfigError, Effect, Either, Option } from "effect"
import { ownCallHeaders } from "../../system/OwnCalls.js"
import type { GovTalkSoftware } from "./GovTalkMessage.js"
import type { GovTalkOptions } from "./GovTalkProtocol.js"

/** Where the server serves its local Transaction Engine (TAX_AUTHORITY=sandbox). */
export const GOVTALK_ENGINE_PATH = "/sandbox/govtalk"
/** The engine's submission endpoint, under its path; polls go where its acknowledgements say. */
export const GOVTALK_ENGINE_SUBMISSION = "/submission"
export const GOVTALK_ENGINE_POLL = "/poll"

/**
 * The product and version the service names in GovTalk's ChannelRouting unless GOVTALK_PRODUCT(_VERSION)
 * say otherwise: the ones registered with HMRC, never the package's version, which changes with every release.
 */
export const GOVTALK_PRODUCT = "cisbook"
export const GOVTALK_PRODUCT_VERSION = "1.0"

/** HMRC's live Transaction Engine: a message sent there with GatewayTest 1 is answered and filed nowhere. */
export const HMRC_LIVE_HOST = "transaction-engine.tax.service.gov.uk"

/** The software as the sandbox names it: the local Transaction Engine takes any vendor id. */
export const SANDBOX_SOFTWARE: GovTalkSoftware = {
  gatewayTest: false,
  vendorId: "0000",
  product: GOVTALK_PRODUCT,
  version: GOVTALK_PRODUCT_VERSION
}

/**
 * Settings of the days when one Government Gateway credential filed for every tenant: each
 * tenant's own credentials (its HMRC credentials setting) replaced them. Still set, they are
 * ignored with a warning at start-up, so that an upgrade starts and the operator removes them.
 */
export const RETIRED_GOVTALK_SETTINGS = ["GOVTALK_SENDER_ID", "GOVTALK_PASSWORD"] as const

export const warnRetiredSettings = Effect.forEach(
  RETIRED_GOVTALK_SETTINGS,
  (name) =>
    Effect.flatMap(Config.option(Config.string(name)), (value) =>
      Option.isSome(value)
        ? Effect.logWarning(
            `${name} is retired and ignored: each tenant's returns and verifications go with its own Government Gateway credentials (PUT /tenants/{tenant}/settings/hmrc-credentials, or the CLI's tenants hmrc-credentials). Remove it from the configuration.`
          )
        : Effect.void
    ),
  { discard: true }
)

/**
 * Warns at start-up of test submissions to HMRC's live engine (GOVTALK_TEST=true with the live
 * GOVTALK_URL): HMRC answers them and files nothing, so no return is filed for real.
 */
export const warnTestInLive = (options: GovTalkOptions) =>
  options.software.gatewayTest && new URL(options.url).hostname === HMRC_LIVE_HOST
    ? Effect.logWarning(
        `GOVTALK_TEST=true with HMRC's live GOVTALK_URL (${options.url}): HMRC validates and answers every return and verification but files nothing. Returns answered so are marked gatewayTest, never billed, mail no statements and count as filed nowhere. Set GOVTALK_TEST=false to file for real.`
      )
    : Effect.void

/** GOVTALK_PRODUCT and GOVTALK_PRODUCT_VERSION: the product name and version HMRC registered for the software. */
const product = Config.withDefault(Config.nonEmptyString("GOVTALK_PRODUCT"), GOVTALK_PRODUCT)
const productVersion = Config.withDefault(Config.nonEmptyString("GOVTALK_PRODUCT_VERSION"), GOVTALK_PRODUCT_VERSION)

const vendorId = Config.string("GOVTALK_VENDOR_ID").pipe(
  Config.mapOrFail((id) =>
    /^[A-Za-z0-9]{4}$/.test(id)
      ? Either.right(id)
      : Either.left(ConfigError.InvalidData([], "Must be the 4-character vendor id HMRC issued"))
  )
)

/** The local Transaction Engine's submission URL under a server's public base URL. */
export const sandboxGovTalkUrl = (publicBaseUrl: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`

/**
 * TAX_AUTHORITY: `sandbox` (the default), the local Transaction Engine the server serves under
 * PUBLIC_BASE_URL (GOVTALK_TEST optional, default false); `govtalk`, HMRC's Transaction Engine at
 * GOVTALK_URL with GOVTALK_VENDOR_ID and GOVTALK_TEST, all required (and CREDENTIALS_KEY, see
 * CredentialsKeyConfig). Either names the software GOVTALK_PRODUCT and GOVTALK_PRODUCT_VERSION;
 * messages go with each tenant's own Government Gateway credentials.
 */
export const GovTalkConfig: Effect.Effect<
  GovTalkOptions & { readonly authority: "sandbox" | "govtalk" },
  ConfigError.ConfigError
> = Effect.gen(function* () {
  const authority = yield* Config.withDefault(Config.literal("sandbox", "govtalk")("TAX_AUTHORITY"), "sandbox")
  const software = { product: yield* product, version: yield* productVersion }
  if (authority === "govtalk") {
    const url = yield* Config.url("GOVTALK_URL")
    return {
      authority,
      url: url.toString(),
      software: { vendorId: yield* vendorId, gatewayTest: yield* Config.boolean("GOVTALK_TEST"), ...software }
    }
  }
  const port = yield* Config.withDefault(Config.port("PORT"), 3000)
  const publicBaseUrl = yield* Config.withDefault(Config.string("PUBLIC_BASE_URL"), `http://localhost:${port}`)
  // Calls to the engine this process serves count against no client's budget.
  const gatewayTest = yield* Config.withDefault(Config.boolean("GOVTALK_TEST"), false)
  return {
    authority,
    url: sandboxGovTalkUrl(publicBaseUrl),
    software: { ...SANDBOX_SOFTWARE, ...software, gatewayTest },
    headers: ownCallHeaders
  }
})
