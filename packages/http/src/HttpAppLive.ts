import { CisbookServerApi } from "./api/ServerApi.js"
import { HttpApiBuilder, HttpApiSwagger, HttpMiddleware, HttpServer } from "@effect/platform"
import { Config, Effect, Layer, Option } from "effect"
import { openApiRoute } from "./api/OpenApiRoute.js"
import { AuthenticateLive } from "./middleware/AuthenticateLive.js"
import { TenantMemberLive, TenantMemberOrNotFoundLive } from "./middleware/TenantMemberLive.js"
import { BillingHandlers } from "./handlers/BillingHandlers.js"
import { CisStatementsHandlers } from "./handlers/CisStatementsHandlers.js"
import { ConnectionsHandlers } from "./handlers/ConnectionsHandlers.js"
import { ContactImportHandlers } from "./handlers/ContactImportHandlers.js"
import { ContactsHandlers } from "./handlers/ContactsHandlers.js"
import { EmailSettingsHandlers } from "./handlers/EmailSettingsHandlers.js"
import { MeHandlers } from "./handlers/MeHandlers.js"
import { MonthlyReturnsHandlers } from "./handlers/MonthlyReturnsHandlers.js"
import { ProviderEventsHandlers } from "./handlers/ProviderEventsHandlers.js"
import { PurchaseInvoicesHandlers } from "./handlers/PurchaseInvoicesHandlers.js"
import { SalesInvoicesHandlers } from "./handlers/SalesInvoicesHandlers.js"
import { SettingsHandlers } from "./handlers/SettingsHandlers.js"
import { SystemHandlers } from "./handlers/SystemHandlers.js"
import { TenantsHandlers } from "./handlers/TenantsHandlers.js"
import { WebhooksHandlers } from "./handlers/WebhooksHandlers.js"
import { MetricsPortConfig } from "./metrics/MetricsConfig.js"
import { requestMetrics } from "./metrics/HttpMetrics.js"
import { TracingConfig } from "./tracing/TracingConfig.js"
import { idempotency } from "./middleware/IdempotencyMiddleware.js"
import { ProblemDetailsMiddleware } from "./problems/ProblemDetailsMiddleware.js"
import { requestLogger } from "./logging/RequestLogger.js"
import { ShuttingDownLive } from "./transport/ShuttingDown.js"
import { closeUnlessBodyRead } from "./transport/UnreadBodyCloses.js"
import { GoCardlessSandboxLive } from "./sandbox/GoCardlessSandboxLive.js"
import { GovTalkEngineRoutes } from "./sandbox/GovTalkEngineRoutes.js"

export const ApiLive = HttpApiBuilder.api(CisbookServerApi).pipe(
  Layer.provide([
    SystemHandlers,
    MeHandlers,
    TenantsHandlers,
    SettingsHandlers,
    EmailSettingsHandlers,
    ContactsHandlers,
    SalesInvoicesHandlers,
    PurchaseInvoicesHandlers,
    WebhooksHandlers,
    MonthlyReturnsHandlers,
    BillingHandlers,
    ConnectionsHandlers,
    CisStatementsHandlers,
    ProviderEventsHandlers
  ]),
  Layer.provide(ContactImportHandlers),
  Layer.provide([AuthenticateLive, TenantMemberLive, TenantMemberOrNotFoundLive])
)

const withoutTracer = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    // No tracer exporter is configured, so spans would be built and thrown away on every request
    // (the request span alone parses the URL and copies every header to annotate it).
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(Layer.setTracerEnabled(false))
  )

/**
 * The HTTP application: the API, its problem bodies, safe retries (Idempotency-Key), OpenAPI at
 * /openapi.json and docs at /docs; each request counted and timed when METRICS_PORT is set, and
 * traced when OTEL_EXPORTER_OTLP_ENDPOINT is.
 */
export const HttpAppLive = Layer.unwrapEffect(
  Effect.map(Config.all([MetricsPortConfig, TracingConfig]), ([metricsPort, { endpoint }]) => {
    const measured = Option.isSome(metricsPort)
    const app = HttpApiBuilder.serve((app) => {
      const served = closeUnlessBodyRead(requestLogger(idempotency(app)))
      return measured ? requestMetrics(served) : served
    }).pipe(
      Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
      Layer.provide(GoCardlessSandboxLive),
      Layer.provide(GovTalkEngineRoutes),
      Layer.provide(openApiRoute("/openapi.json")),
      Layer.provide(ProblemDetailsMiddleware),
      Layer.provide(ApiLive),
      // The same layer main.ts gives the graceful shutdown: built once, so both see one state.
      Layer.provide(ShuttingDownLive),
      HttpServer.withLogAddress
    )
    return Option.isSome(endpoint) ? app : withoutTracer(app)
  })
)
