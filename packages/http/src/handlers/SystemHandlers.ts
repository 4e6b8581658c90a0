import { CisbookApi } from "@cisbook/sdk/Api"
import { Health } from "@cisbook/sdk/SystemApi"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"

const ok = new Health({ status: "ok" })

export const SystemHandlers = HttpApiBuilder.group(CisbookApi, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed(ok))
)
