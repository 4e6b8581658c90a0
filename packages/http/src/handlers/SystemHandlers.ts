import type { StorageState } from "@cisbook/core/system/StorageHealth"
import { StorageHealth } from "@cisbook/core/system/StorageHealth"
import { CisbookApi } from "@cisbook/sdk/Api"
import { NotReady } from "@cisbook/sdk/Problem"
import { Health, Readiness } from "@cisbook/sdk/SystemApi"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ShuttingDown } from "../transport/ShuttingDown.js"

const ok = new Health({ status: "ok" })
const ready = new Readiness({ status: "ready" })

const notReady = (state: Exclude<StorageState, { _tag: "Ready" }>) =>
  new NotReady({
    detail:
      state._tag === "Unreachable"
        ? "The database does not answer."
        : `The database's schema is behind this version: ${state.missing.length} migrations have not run (the first is ${state.missing[0]}). Start a process of this version to migrate it.`
  })

export const SystemHandlers = HttpApiBuilder.group(CisbookApi, "system", (handlers) =>
  Effect.gen(function* () {
    const storage = yield* StorageHealth
    const shutdown = yield* ShuttingDown
    return handlers
      .handle("health", () => Effect.succeed(ok))
      .handle("ready", () =>
        shutdown.begun()
          ? Effect.fail(new NotReady({ detail: "The process is shutting down." }))
          : Effect.flatMap(storage.check, (state) =>
              state._tag === "Ready" ? Effect.succeed(ready) : Effect.fail(notReady(state))
            )
      )
  })
)
