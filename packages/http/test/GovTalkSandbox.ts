import {
  GOVTALK_ENGINE_PATH,
  GOVTALK_ENGINE_POLL,
  GOVTALK_ENGINE_SUBMISSION,
  SANDBOX_SOFTWARE
} from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { ownCallHeaders } from "@cisbook/adapters/system/OwnCalls"
import { govTalkTaxAuthority } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTaxAuthority"
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { govTalkEngineHandler } from "../src/sandbox/GovTalkEngineRoutes.js"

/** The local Transaction Engine alone, on a free port, over the test's database. */
export const GovTalkEngineServer = Layer.unwrapEffect(
  Effect.map(Effect.flatMap(SqlClient.SqlClient, govTalkEngineHandler), (answer) =>
    HttpServer.serve(
      HttpRouter.empty.pipe(
        HttpRouter.post(`${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`, answer("submission")),
        HttpRouter.post(`${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_POLL}`, answer("response"))
      )
    )
  )
).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0 })))

/**
 * The GovTalk adapter pointed at a Transaction Engine served by the HttpServer in context, as
 * TAX_AUTHORITY=sandbox does; with `gatewayTest`, as GOVTALK_TEST=true does.
 */
export const govTalkOverServedEngine = (gatewayTest = false) =>
  Layer.unwrapEffect(
    HttpServer.addressWith((address) =>
      Effect.succeed(
        govTalkTaxAuthority({
          url: `${HttpServer.formatAddress(address)}${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`,
          software: { ...SANDBOX_SOFTWARE, gatewayTest },
          headers: ownCallHeaders
        })
      )
    )
  )

export const GovTalkOverServedEngine = govTalkOverServedEngine()

/** The tax authority of a test without a server of its own: the GovTalk adapter over a Transaction Engine of its own. */
export const GovTalkSandbox = GovTalkOverServedEngine.pipe(Layer.provide(GovTalkEngineServer))

/** How many times the engine received a return (its messages under the return's TransactionID). */
export const engineReceived = (returnId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ correlationId: string; earlyPolls: number; deletedAt: Date | null }>`
      SELECT correlation_id, early_polls, deleted_at FROM govtalk_engine_messages
      WHERE class = 'IR-CIS-CIS300MR' AND transaction_id = ${returnId.replaceAll("-", "").toUpperCase()}
      ORDER BY received_at`
  ).pipe(Effect.orDie)
