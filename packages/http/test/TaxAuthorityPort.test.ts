import { sandboxCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import {
  GOVTALK_ENGINE_PATH,
  GOVTALK_ENGINE_SUBMISSION,
  SANDBOX_SOFTWARE
} from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { govTalkMessage } from "@cisbook/adapters/taxauthority/govtalk/GovTalkMessage"
import { govTalkExchange } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTransport"
import { taxAuthorityContract } from "@cisbook/testkit/contracts/TaxAuthorityContract"
import { FetchHttpClient, HttpServer } from "@effect/platform"
import { assert, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GovTalkEngineServer, GovTalkSandbox } from "./GovTalkSandbox.js"
import { GovTalkOverHmrcDocuments } from "./HmrcDocumentsEngine.js"

// The GovTalk adapter over the local Transaction Engine the server serves (TAX_AUTHORITY=sandbox).
taxAuthorityContract(
  "GovTalk adapter over the local Transaction Engine",
  GovTalkSandbox.pipe(Layer.provide(EphemeralDatabase))
)

// The same adapter over HMRC's own answer documents: the local engine cannot drift into agreeing only with the adapter.
taxAuthorityContract("GovTalk adapter over HMRC's answer documents", GovTalkOverHmrcDocuments)

const submissionUrl = HttpServer.addressWith((address) =>
  Effect.succeed(`${HttpServer.formatAddress(address)}${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`)
)

layer(GovTalkEngineServer.pipe(Layer.provideMerge(EphemeralDatabase)), {
  excludeTestServices: true,
  timeout: "60 seconds"
})("the local Transaction Engine's endpoints", (it) => {
  it.effect(
    "refuses, as HMRC, a poll or a delete sent to its submission URL; answers them at its response endpoint",
    () =>
      Effect.gen(function* () {
        const url = yield* submissionUrl
        const exchange = (at: string, message: string) =>
          govTalkExchange(at, message).pipe(Effect.provide(FetchHttpClient.layer))
        const list = yield* exchange(
          url,
          govTalkMessage(
            { function: "list", class: "IR-CIS-CIS300MR" },
            // A data request goes with the tenant's credentials; polls and deletes carry none.
            {
              ...SANDBOX_SOFTWARE,
              senderId: sandboxCredentials.gatewayUserId,
              password: sandboxCredentials.password
            }
          )
        )
        assert(list._tag === "Response")
        // Its response endpoint is not its submission URL.
        expect(list.pollUrl).not.toBeNull()
        expect(list.pollUrl).not.toBe(url)
        for (const fn of ["poll", "delete"] as const) {
          const answer = yield* exchange(
            url,
            govTalkMessage({ function: fn, class: "IR-CIS-CIS300MR", correlationId: "C0FFEE" }, SANDBOX_SOFTWARE)
          )
          assert(answer._tag === "Error")
          expect(answer.errors.map((e) => [e.number, e.type])).toEqual([["1002", "fatal"]])
          expect(answer.errors[0]?.text).toContain("ResponseEndPoint")
          // At the response endpoint, the same message is answered: a correlation id it never gave is unknown.
          const there = yield* exchange(
            list.pollUrl!,
            govTalkMessage({ function: fn, class: "IR-CIS-CIS300MR", correlationId: "C0FFEE" }, SANDBOX_SOFTWARE)
          )
          assert(there._tag === "Error")
          expect(there.errors.map((e) => e.number)).toEqual(["2000"])
        }
      })
  )
})
