import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotReadyProblem } from "./Problem.js"
import { forAnyone } from "./Access.js"

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok").annotations({ examples: ["ok"] })
}) {}

export class Readiness extends Schema.Class<Readiness>("Readiness")({
  status: Schema.Literal("ready").annotations({ examples: ["ready"] })
}) {}

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Liveness check; needs no credentials")
      .annotate(
        OpenApi.Description,
        "Answers 200 while the process is up, and 503 (with Retry-After) while it is still starting. It does not touch the database: use it to restart a process that hangs, and /health/ready to decide where requests go."
      )
  )
  .add(
    HttpApiEndpoint.get("ready", "/health/ready")
      .addSuccess(Readiness)
      .addError(NotReadyProblem)
      .annotate(OpenApi.Summary, "Readiness check for load balancers; needs no credentials")
      .annotate(
        OpenApi.Description,
        "Answers 200 when this process can serve requests: its database answers, the database's schema has every migration this version knows, and the process is not shutting down. Otherwise 503 with a problem saying which. A load balancer sends requests only to processes that answer 200."
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "The service's own state.")
  .pipe(forAnyone) {}
