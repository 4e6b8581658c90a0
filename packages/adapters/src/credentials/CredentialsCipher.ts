import { Context, Redacted } from "effect"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

/** A 32-byte AES-256 key, and the short id a sealed value names it by. */
export interface CredentialsKey {
  readonly id: string
  readonly key: Redacted.Redacted<Buffer>
}

/** The key's id: the first 8 hex digits of its SHA-256 (says which key sealed a value, reveals nothing of it). */
export const credentialsKey = (key: Buffer): CredentialsKey => ({
  id: createHash("sha256").update(key).digest("hex").slice(0, 8),
  key: Redacted.make(key)
})

const VERSION = "v1"

/**
 * Seals and opens secrets kept at rest (the tenants' Government Gateway passwords) with
 * AES-256-GCM: `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url, bound to a context (the tenant)
 * so that a sealed value copied to another tenant's row does not open. Seals with the current
 * key; opens with whichever key sealed it, the current or the previous (during a key rotation).
 */
export class CredentialsCipher extends Context.Tag("adapters/CredentialsCipher")<
  CredentialsCipher,
  {
    readonly seal: (secret: Redacted.Redacted<string>, context: string) => string
    /** Throws when no key it has sealed the value, or the value was altered. */
    readonly open: (sealed: string, context: string) => Redacted.Redacted<string>
    /** Whether the value is sealed with the current key (else a rotation has yet to re-seal it). */
    readonly isCurrent: (sealed: string) => boolean
  }
>() {}

export const makeCredentialsCipher = (current: CredentialsKey, previous: ReadonlyArray<CredentialsKey>) => {
  const keys = new Map([current, ...previous].map((k) => [k.id, k] as const))
  return CredentialsCipher.of({
    seal: (secret, context) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", Redacted.value(current.key), iv)
      cipher.setAAD(Buffer.from(context, "utf8"))
      const ciphertext = Buffer.concat([cipher.update(Redacted.value(secret), "utf8"), cipher.final()])
      return [VERSION, current.id, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".")
    },
    open: (sealed, context) => {
      const [version, keyId, iv, tag, ciphertext] = sealed.split(".")
      const key = keys.get(keyId ?? "")
      if (version !== VERSION || key === undefined || iv === undefined || tag === undefined || ciphertext === undefined)
        throw new Error(
          `A stored credential is sealed with a key this server does not have (key id ${keyId ?? "?"}): set CREDENTIALS_KEY, or CREDENTIALS_KEY_PREVIOUS during a rotation, to the key it was sealed with`
        )
      const decipher = createDecipheriv("aes-256-gcm", Redacted.value(key.key), Buffer.from(iv, "base64url"))
      decipher.setAAD(Buffer.from(context, "utf8"))
      decipher.setAuthTag(Buffer.from(tag, "base64url"))
      return Redacted.make(
        Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8")
      )
    },
    isCurrent: (sealed) => sealed.split(".")[1] === current.id
  })
}
