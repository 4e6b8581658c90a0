import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, raw, sqlTestPorts, tenantOwner } from "./E2E.js"

layer(e2e(sqlTestPorts({ allowPrivateTargets: true })), { timeout: "120 seconds" })("requests racing", (it) => {
  describe("webhooks", () => {
    it.effect("of 20 DELETEs of one webhook at once, exactly one answers 204, the others 404", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* tenantOwner("race-delete")
        const webhook = yield* api.webhooks.createWebhook({
          path: { tenant },
          payload: { url: "http://127.0.0.1:9/never-called" }
        })
        const answers = yield* Effect.all(
          Array.from({ length: 20 }, () => raw(key, "DELETE", `/tenants/${tenant}/webhooks/${webhook.id}`)),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((a) => a.status).sort()
        expect(statuses).toEqual([204, ...Array.from({ length: 19 }, () => 404)])
      })
    )
  })
})
