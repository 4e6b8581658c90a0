import { AppLive } from "@cisbook/adapters/AppLive"
import { RateLimitsLive } from "@cisbook/adapters/ratelimits/RateLimitsLive"
import { RevocationNoticesLive } from "@cisbook/adapters/sql/RevocationNoticesLive"
import { MailSenderLive } from "./workers/MailSender.js"
import { ReturnFilerLive } from "./workers/ReturnFiler.js"
import { VerificationWorkerLive } from "./workers/VerificationWorker.js"
import { WebhookDispatcherLive } from "./workers/WebhookDispatcher.js"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpAppLive } from "./HttpAppLive.js"
import { ListenConfig } from "./ListenConfig.js"
import { RevocationFollowerLive } from "./RevocationFollower.js"
import { LoggerLive } from "./LoggerLive.js"
import { makeNodeServer, ServerLimitsConfig } from "./NodeServer.js"
import { UploadDirectoryLive } from "./UploadDirectory.js"

const ServerLive = Layer.unwrapEffect(
  Effect.map(ServerLimitsConfig, (limits) => NodeHttpServer.layerConfig(() => makeNodeServer(limits), ListenConfig))
)

Layer.mergeAll(
  HttpAppLive.pipe(Layer.provide(UploadDirectoryLive), Layer.provide(RateLimitsLive)),
  WebhookDispatcherLive,
  MailSenderLive,
  VerificationWorkerLive,
  ReturnFilerLive,
  RevocationFollowerLive.pipe(Layer.provide(RevocationNoticesLive))
).pipe(
  Layer.provide(AppLive),
  Layer.provide(ServerLive),
  Layer.provide(LoggerLive),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
