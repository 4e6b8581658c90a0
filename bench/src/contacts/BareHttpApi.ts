import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"

class Health extends Schema.Class<Health>("Health")({ status: Schema.Literal("ok") }) {}

class BareApi extends HttpApi.make("bare").add(
  HttpApiGroup.make("system").add(HttpApiEndpoint.get("health", "/health").addSuccess(Health))
) {}

const ok = new Health({ status: "ok" })

/**
 * The framework's own floor: an HttpApi of one endpoint answering a constant, with no middleware,
 * no services and no tracer, served as the service is (HttpApiBuilder on NodeHttpServer).
 */
export const BareHttpApiLive = HttpApiBuilder.serve().pipe(
  Layer.provide(
    HttpApiBuilder.api(BareApi).pipe(
      Layer.provide(
        HttpApiBuilder.group(BareApi, "system", (handlers) => handlers.handle("health", () => Effect.succeed(ok)))
      )
    )
  ),
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(Layer.setTracerEnabled(false)),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

/** The address the bare HttpApi listens on, once its layer is built. */
export const bareHttpApiUrl = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : ""
)
