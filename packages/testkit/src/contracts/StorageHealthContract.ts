import { StorageHealth } from "@cisbook/core/system/StorageHealth"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { ContractIt } from "./Fixtures.js"

export const storageHealthContract = (it: ContractIt) => {
  it.effect("a store that answers, with its schema up to date, is ready", () =>
    Effect.gen(function* () {
      const health = yield* StorageHealth
      expect(yield* health.check).toEqual({ _tag: "Ready" })
    })
  )
}
