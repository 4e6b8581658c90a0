import { Config, ConfigError, Effect, Either, Layer, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { CredentialsCipher, credentialsKey, makeCredentialsCipher } from "./CredentialsCipher.js"

/**
 * The key sandbox mode seals passwords with when CREDENTIALS_KEY is not set: fixed and public
 * (it is in the source), fit for development only. TAX_AUTHORITY=govtalk never uses it.
 */
export const DEVELOPMENT_CREDENTIALS_KEY = createHash("sha256").update("cisbook development credentials key").digest()

const aesKey = (name: string) =>
  Config.redacted(name).pipe(
    Config.mapOrFail((value) => {
      const key = Buffer.from(Redacted.value(value).trim(), "base64")
      return key.length === 32
        ? Either.right(key)
        : Either.left(
            ConfigError.InvalidData(
              [name],
              "Must be 32 random bytes in base64 (44 characters), for example from `openssl rand -base64 32`"
            )
          )
    })
  )

/**
 * CREDENTIALS_KEY: the AES-256 key the tenants' Government Gateway passwords are sealed with,
 * required with TAX_AUTHORITY=govtalk (the server does not start without it); in sandbox mode
 * the development key stands in for it. CREDENTIALS_KEY_PREVIOUS, during a key rotation: the
 * key being retired, which still opens what it sealed until `credentials reseal` has re-sealed it.
 */
export const CredentialsKeyConfig = Effect.gen(function* () {
  const authority = yield* Config.withDefault(Config.literal("sandbox", "govtalk")("TAX_AUTHORITY"), "sandbox")
  const configured = yield* Config.option(aesKey("CREDENTIALS_KEY"))
  const current =
    authority === "govtalk"
      ? yield* aesKey("CREDENTIALS_KEY")
      : Option.getOrElse(configured, () => DEVELOPMENT_CREDENTIALS_KEY)
  const previous = yield* Config.option(aesKey("CREDENTIALS_KEY_PREVIOUS"))
  return { current: credentialsKey(current), previous: Option.toArray(Option.map(previous, credentialsKey)) }
})

export const CredentialsCipherLive = Layer.effect(
  CredentialsCipher,
  Effect.map(CredentialsKeyConfig, ({ current, previous }) => makeCredentialsCipher(current, previous))
)
