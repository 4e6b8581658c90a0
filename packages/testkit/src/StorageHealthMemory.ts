import { StorageHealth } from "@cisbook/core/system/StorageHealth"
import { Effect, Layer } from "effect"

/** Memory is always there, and has no schema to fall behind. */
export const StorageHealthMemory = Layer.succeed(StorageHealth, { check: Effect.succeed({ _tag: "Ready" as const }) })
