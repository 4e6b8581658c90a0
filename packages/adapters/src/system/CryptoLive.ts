import { createHash, randomBytes } from "node:crypto"
import { Crypto } from "@cisbook/core/system/Crypto"
import { Effect, Layer } from "effect"

export const CryptoLive = Layer.succeed(
  Crypto,
  Crypto.of({
    randomBytes: (length) => Effect.sync(() => new Uint8Array(randomBytes(length))),
    sha256Hex: (text) => Effect.sync(() => createHash("sha256").update(text, "utf8").digest("hex"))
  })
)
