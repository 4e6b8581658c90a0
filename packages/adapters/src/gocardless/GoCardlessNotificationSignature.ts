import { ProviderEventSignature } from "@cisbook/core/billing/providerevents/ProviderEventSignature"
import { Config, type ConfigError, Effect, Layer, Redacted } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { SANDBOX_NOTIFICATION_SECRET } from "./GoCardlessNotificationSecret.js"

/** The hex HMAC-SHA256 of the body keyed with the secret: GoCardless's Webhook-Signature. */
export const goCardlessSignatureOf = (body: string, secret: string): string =>
  createHmac("sha256", secret).update(body, "utf8").digest("hex")

/**
 * Checks GoCardless's Webhook-Signature as its own client does (webhooks.ts): the header read as
 * hex and compared with the body's HMAC digest by timingSafeEqual. A header of another length is
 * compared with the digest itself, so that refusing it takes the same time too.
 */
export const goCardlessNotificationSignature = (secret: Redacted.Redacted) =>
  Layer.succeed(
    ProviderEventSignature,
    ProviderEventSignature.of({
      verify: (body, signature) =>
        Effect.sync(() => {
          const expected = createHmac("sha256", Redacted.value(secret)).update(body, "utf8").digest()
          const given = Buffer.from(signature ?? "", "hex")
          const sameLength = given.length === expected.length
          return timingSafeEqual(sameLength ? given : expected, expected) && sameLength
        })
    })
  )

/**
 * GOCARDLESS_WEBHOOK_SECRET: required with DIRECT_DEBIT_PROVIDER=gocardless; in sandbox mode
 * the development secret the sandbox signs with, unless set.
 */
export const NotificationSecretConfig: Effect.Effect<Redacted.Redacted, ConfigError.ConfigError> = Effect.gen(
  function* () {
    const provider = yield* Config.withDefault(
      Config.literal("sandbox", "gocardless")("DIRECT_DEBIT_PROVIDER"),
      "sandbox"
    )
    const secret = Config.redacted("GOCARDLESS_WEBHOOK_SECRET")
    return yield* provider === "gocardless"
      ? secret
      : Config.withDefault(secret, Redacted.make(SANDBOX_NOTIFICATION_SECRET))
  }
)

export const ProviderEventSignatureLive = Layer.unwrapEffect(
  Effect.map(NotificationSecretConfig, goCardlessNotificationSignature)
)
