import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok").annotations({ examples: ["ok"] })
}) {}

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Liveness check; needs no credentials")
      .annotate(
        OpenApi.Description,
        "Answers 200 while the process is up, and 503 (with Retry-After) while it is still starting. It does not touch the database, so a load balancer may call it often."
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "The service's own state.") {}
