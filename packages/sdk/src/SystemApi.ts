import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"

export class Health extends Schema.Class<Health>("Health")({ status: Schema.Literal("ok") }) {}

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Liveness check; needs no credentials")
  )
  .annotate(OpenApi.Title, "System") {}
