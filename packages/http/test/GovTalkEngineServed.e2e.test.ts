import { describe, expect, layer } from "@effect/vitest"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { ConfigProvider, Effect, Layer } from "effect"
import { e2e, SqlTestPorts } from "./E2E.js"

/** The server under test with these settings over the environment's. */
const serverWith = (settings: Record<string, string>) =>
  e2e(SqlTestPorts).pipe(
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(new Map(Object.entries(settings))).pipe(
          ConfigProvider.orElse(() => ConfigProvider.fromEnv())
        )
      )
    )
  )

/** A `list` data request, the smallest message the engine answers. */
const list = `<?xml version="1.0" encoding="UTF-8"?>
<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion>
<Header><MessageDetails><Class>IR-CIS-CIS300MR</Class><Qualifier>request</Qualifier><Function>list</Function>
<CorrelationID/><Transformation>XML</Transformation><GatewayTest>1</GatewayTest></MessageDetails>
<SenderDetails><IDAuthentication><SenderID>CISBOOKSANDBOX</SenderID><Authentication><Method>clear</Method><Role>principal</Role><Value>sandbox</Value></Authentication></IDAuthentication></SenderDetails></Header>
<GovTalkDetails><Keys/></GovTalkDetails><Body/></GovTalkMessage>`

const post = (path: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    client.execute(HttpClientRequest.post(path).pipe(HttpClientRequest.bodyText(list, "text/xml")))
  ).pipe(
    Effect.flatMap((response) => Effect.map(response.text, (body) => ({ status: response.status, body }))),
    Effect.scoped
  )

describe("the local Transaction Engine is served only with TAX_AUTHORITY=sandbox", () => {
  layer(serverWith({ TAX_AUTHORITY: "sandbox" }), { timeout: "60 seconds" })("sandbox", (it) => {
    it.effect("answers GovTalk under /sandbox/govtalk", () =>
      Effect.gen(function* () {
        const answer = yield* post("/sandbox/govtalk/submission")
        expect(answer.status).toBe(200)
        expect(answer.body).toContain("<Qualifier>response</Qualifier>")
        expect(answer.body).toContain("<StatusReport>")
      })
    )
  })

  layer(
    serverWith({
      TAX_AUTHORITY: "govtalk",
      GOVTALK_URL: "https://test-transaction-engine.tax.service.gov.uk/submission",
      CREDENTIALS_KEY: "a2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2s=",
      GOVTALK_VENDOR_ID: "8472",
      GOVTALK_TEST: "true"
    }),
    { timeout: "60 seconds" }
  )("govtalk", (it) => {
    it.effect("has no /sandbox/govtalk: 404", () =>
      Effect.gen(function* () {
        expect((yield* post("/sandbox/govtalk/submission")).status).toBe(404)
        expect((yield* post("/sandbox/govtalk/poll")).status).toBe(404)
      })
    )
  })
})
