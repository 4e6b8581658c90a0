import { AppLive } from "@cisbook/adapters/AppLive"
import { MailSenderLive } from "./workers/MailSender.js"
import { WebhookDispatcherLive } from "./workers/WebhookDispatcher.js"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { createServer } from "node:http"
import { HttpAppLive } from "./HttpAppLive.js"
import { ListenConfig } from "./ListenConfig.js"
import { LoggerLive } from "./LoggerLive.js"

const ServerLive = NodeHttpServer.layerConfig(createServer, ListenConfig)

Layer.mergeAll(HttpAppLive, WebhookDispatcherLive, MailSenderLive).pipe(
  Layer.provide(AppLive),
  Layer.provide(ServerLive),
  Layer.provide(LoggerLive),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
