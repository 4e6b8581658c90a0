import { Layer } from "effect"
import { ClockLive } from "./ClockLive.js"
import { CryptoLive } from "./CryptoLive.js"
import { IdGeneratorLive } from "./IdGeneratorLive.js"

/** The wall clock, UUID v7 ids and node:crypto. */
export const SystemLive = Layer.mergeAll(ClockLive, IdGeneratorLive, CryptoLive)
