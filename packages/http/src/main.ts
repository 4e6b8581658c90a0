import { AppLive } from "@cisbook/adapters/AppLive"
import { RateLimitsLive } from "@cisbook/adapters/ratelimits/RateLimitsLive"
import { RevocationNoticesLive } from "@cisbook/adapters/sql/RevocationNoticesLive"
import { IdempotencyKeySweeperLive } from "./workers/IdempotencyKeySweeper.js"
import { MailSenderLive } from "./workers/MailSender.js"
import { ProviderEventsWorkerLive } from "./workers/ProviderEventsWorker.js"
import { ReturnFilerLive } from "./workers/ReturnFiler.js"
import { StatementDelivererLive } from "./workers/StatementDeliverer.js"
import { VerificationWorkerLive } from "./workers/VerificationWorker.js"
import { WebhookDispatcherLive } from "./workers/WebhookDispatcher.js"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { gracefulShutdown } from "./transport/GracefulShutdown.js"
import { HttpAppLive } from "./HttpAppLive.js"
import { ListenConfig } from "./transport/ListenConfig.js"
import { RevocationFollowerLive } from "./workers/RevocationFollower.js"
import { MetricsLive } from "./metrics/MetricsListener.js"
import { TracingLive } from "./tracing/TracingLive.js"
import { LoggerLive } from "./logging/LoggerLive.js"
import { makeNodeServer, ServerLimitsConfig } from "./transport/NodeServer.js"
import { ShuttingDownLive } from "./transport/ShuttingDown.js"
import { UploadDirectoryLive } from "./uploads/UploadDirectory.js"

const ServiceLive = Layer.mergeAll(
  HttpAppLive.pipe(Layer.provide(UploadDirectoryLive), Layer.provide(RateLimitsLive)),
  WebhookDispatcherLive,
  MailSenderLive,
  VerificationWorkerLive,
  ReturnFilerLive,
  StatementDelivererLive,
  ProviderEventsWorkerLive,
  IdempotencyKeySweeperLive,
  MetricsLive,
  RevocationFollowerLive.pipe(Layer.provide(RevocationNoticesLive))
)

/**
 * Built in this order, released in the reverse one: the listening server, the database, the
 * application and its workers, and last the graceful shutdown, so that on SIGTERM the requests
 * in flight finish while everything they need is still there, then the workers stop, then the
 * database closes.
 */
const MainLive = Layer.unwrapEffect(
  Effect.map(ServerLimitsConfig, (limits) => {
    const server = makeNodeServer(limits)
    return gracefulShutdown(server).pipe(
      Layer.provide(ShuttingDownLive),
      Layer.provide(ServiceLive),
      Layer.provide(AppLive),
      Layer.provide(NodeHttpServer.layerConfig(() => server, ListenConfig))
    )
  })
)

// Without OTEL_EXPORTER_OTLP_ENDPOINT no tracer at all: spans (one a worker attempt, one a SQL
// statement) would be built and thrown away.
MainLive.pipe(
  Layer.provide(LoggerLive),
  Layer.provide(TracingLive),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
