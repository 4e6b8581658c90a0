import { Schema } from "effect"
import { ApiKeyId, UserId } from "../Ids.js"

export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: ApiKeyId,
  userId: UserId,
  name: Schema.String,
  /** The first characters of the key, enough to recognise it in a list. */
  prefix: Schema.String,
  createdAt: Schema.DateFromSelf,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf)
}) {}

export const API_KEY_PREFIX = "cis_"
/** 32 random bytes in base62 take at most 43 digits. */
export const API_KEY_RANDOM_BYTES = 32
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const keyShape = /^cis_[0-9A-Za-z]{43}$/

const base62 = (bytes: Uint8Array): string => {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  let out = ""
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out
    n /= 62n
  }
  return out.padStart(43, "0")
}

/** Formats random bytes as a key: `cis_` + base62, fixed width. */
export const formatApiKey = (random: Uint8Array): string => API_KEY_PREFIX + base62(random)

export const isApiKeyShape = (candidate: string): boolean => keyShape.test(candidate)

export const displayPrefix = (key: string): string => key.slice(0, DISPLAY_PREFIX_LENGTH)

export const ApiKeyName = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "A name is required" }),
  Schema.maxLength(100, { message: () => "A name has at most 100 characters" })
)
