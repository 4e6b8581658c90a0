import { randomBytes } from "node:crypto"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { Effect, Layer } from "effect"

const POOL_BYTES = 10 * 1024
let pool = Buffer.alloc(0)
let used = 0

/** Ten random bytes, cut from a pool filled 1,024 ids at a time: a call to the CSPRNG per id costs more than the id. */
const randomTenBytes = (): Uint8Array => {
  if (used + 10 > pool.length) {
    pool = randomBytes(POOL_BYTES)
    used = 0
  }
  used += 10
  return pool.subarray(used - 10, used)
}

/**
 * A UUID version 7 (RFC 9562) in lower case: 48 bits of Unix milliseconds, then random bits,
 * so that ids sort by creation time and index well.
 */
export const uuidV7 = (millis: number, random: Uint8Array = randomTenBytes()): string => {
  const bytes = new Uint8Array(16)
  let time = millis
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256
    time = Math.floor(time / 256)
  }
  bytes.set(random.subarray(0, 10), 6)
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f)
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f)
  const hex = Buffer.from(bytes).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const IdGeneratorLive = Layer.succeed(
  IdGenerator,
  IdGenerator.of({ uuid: Effect.sync(() => uuidV7(Date.now())) })
)
