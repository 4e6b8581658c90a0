import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder, HttpApiSwagger, HttpMiddleware, HttpServer } from "@effect/platform"
import { Layer } from "effect"
import { AuthenticateLive } from "./AuthenticateLive.js"
import { BillingHandlers } from "./handlers/BillingHandlers.js"
import { ConnectionsHandlers } from "./handlers/ConnectionsHandlers.js"
import { ContactImportHandlers } from "./handlers/ContactImportHandlers.js"
import { ContactsHandlers } from "./handlers/ContactsHandlers.js"
import { EmailSettingsHandlers } from "./handlers/EmailSettingsHandlers.js"
import { MeHandlers } from "./handlers/MeHandlers.js"
import { MonthlyReturnsHandlers } from "./handlers/MonthlyReturnsHandlers.js"
import { PurchaseInvoicesHandlers } from "./handlers/PurchaseInvoicesHandlers.js"
import { SalesInvoicesHandlers } from "./handlers/SalesInvoicesHandlers.js"
import { SettingsHandlers } from "./handlers/SettingsHandlers.js"
import { SystemHandlers } from "./handlers/SystemHandlers.js"
import { TenantsHandlers } from "./handlers/TenantsHandlers.js"
import { WebhooksHandlers } from "./handlers/WebhooksHandlers.js"
import { idempotency } from "./IdempotencyMiddleware.js"
import { ProblemDetailsMiddleware } from "./ProblemDetailsMiddleware.js"
import { requestLogger } from "./RequestLogger.js"
import { GoCardlessSandboxRoutes } from "./sandbox/GoCardlessSandboxRoutes.js"
import { GovTalkEngineRoutes } from "./sandbox/GovTalkEngineRoutes.js"

export const ApiLive = HttpApiBuilder.api(CisbookApi).pipe(
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
    ConnectionsHandlers
  ]),
  Layer.provide(ContactImportHandlers),
  Layer.provide(AuthenticateLive)
)

/** The HTTP application: the API, its problem bodies, safe retries (Idempotency-Key), OpenAPI at /openapi.json and docs at /docs. */
export const HttpAppLive = HttpApiBuilder.serve((app) => requestLogger(idempotency(app))).pipe(
  Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
  Layer.provide(GoCardlessSandboxRoutes),
  Layer.provide(GovTalkEngineRoutes),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(ProblemDetailsMiddleware),
  Layer.provide(ApiLive),
  HttpServer.withLogAddress,
  // No tracer exporter is configured, so spans would be built and thrown away on every request
  // (the request span alone parses the URL and copies every header to annotate it).
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(Layer.setTracerEnabled(false))
)
