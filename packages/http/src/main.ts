import { AppLive } from "@cisbook/adapters/AppLive"
import { WebhookDispatcherLive } from "./workers/WebhookDispatcher.js"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { HttpAppLive } from "./HttpAppLive.js"
import { LoggerLive } from "./LoggerLive.js"
import { makeNodeServer, ServerLimitsConfig } from "./NodeServer.js"

const ServerLive = Layer.unwrapEffect(
  Effect.map(ServerLimitsConfig, (limits) =>
    NodeHttpServer.layerConfig(() => makeNodeServer(limits), {
      port: Config.withDefault(Config.port("PORT"), 3000),
      host: Config.withDefault(Config.string("HOST"), "0.0.0.0")
    })
  )
)

Layer.merge(HttpAppLive, WebhookDispatcherLive).pipe(
  Layer.provide(AppLive),
  Layer.provide(ServerLive),
  Layer.provide(LoggerLive),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
