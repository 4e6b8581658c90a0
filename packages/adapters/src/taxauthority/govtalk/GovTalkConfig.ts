import { Config, ConfigError, Effect, Either, Redacted } from "effect"
import { ownCallHeaders } from "../../system/OwnCalls.js"
import type { GovTalkSender } from "./GovTalkMessage.js"
import type { GovTalkOptions } from "./GovTalkTaxAuthority.js"

/** Where the server serves its local Transaction Engine (TAX_AUTHORITY=sandbox). */
export const GOVTALK_ENGINE_PATH = "/sandbox/govtalk"
/** The engine's submission endpoint, under its path; polls go where its acknowledgements say. */
export const GOVTALK_ENGINE_SUBMISSION = "/submission"
export const GOVTALK_ENGINE_POLL = "/poll"

/** The product and version the service names in GovTalk's ChannelRouting. */
export const GOVTALK_PRODUCT = "cisbook"
export const GOVTALK_PRODUCT_VERSION = "0.1.0"

/** The sandbox's own sender: the local Transaction Engine takes any credentials. */
export const SANDBOX_SENDER: GovTalkSender = {
  senderId: "CISBOOKSANDBOX",
  password: Redacted.make("sandbox"),
  gatewayTest: true,
  vendorId: "0000",
  product: GOVTALK_PRODUCT,
  version: GOVTALK_PRODUCT_VERSION
}

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
 * PUBLIC_BASE_URL; `govtalk`, HMRC's Transaction Engine at GOVTALK_URL with GOVTALK_SENDER_ID,
 * GOVTALK_PASSWORD, GOVTALK_VENDOR_ID and GOVTALK_TEST, all required.
 */
export const GovTalkConfig: Effect.Effect<
  GovTalkOptions & { readonly authority: "sandbox" | "govtalk" },
  ConfigError.ConfigError
> = Effect.gen(function* () {
  const authority = yield* Config.withDefault(Config.literal("sandbox", "govtalk")("TAX_AUTHORITY"), "sandbox")
  if (authority === "govtalk") {
    const url = yield* Config.url("GOVTALK_URL")
    return {
      authority,
      url: url.toString(),
      sender: {
        senderId: yield* Config.nonEmptyString("GOVTALK_SENDER_ID"),
        password: yield* Config.redacted(Config.nonEmptyString("GOVTALK_PASSWORD")),
        vendorId: yield* vendorId,
        gatewayTest: yield* Config.boolean("GOVTALK_TEST"),
        product: GOVTALK_PRODUCT,
        version: GOVTALK_PRODUCT_VERSION
      }
    }
  }
  const port = yield* Config.withDefault(Config.port("PORT"), 3000)
  const publicBaseUrl = yield* Config.withDefault(Config.string("PUBLIC_BASE_URL"), `http://localhost:${port}`)
  // Calls to the engine this process serves count against no client's budget.
  return { authority, url: sandboxGovTalkUrl(publicBaseUrl), sender: SANDBOX_SENDER, headers: ownCallHeaders }
})
