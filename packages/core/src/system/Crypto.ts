import { Context, type Effect } from "effect"

export class Crypto extends Context.Tag("core/Crypto")<
  Crypto,
  {
    readonly randomBytes: (length: number) => Effect.Effect<Uint8Array>
    readonly sha256Hex: (text: string) => Effect.Effect<string>
  }
>() {}
