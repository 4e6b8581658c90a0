import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { TracingConfig, tracesUrl } from "./TracingConfig.js"

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT, spans (each request, its SQL statements, the provider
 * calls, each worker attempt) go to the collector over OTLP/HTTP as JSON, in batches. Without
 * it there is no tracer at all: spans would be built and thrown away, at a cost to every request.
 */
export const TracingLive = Layer.unwrapEffect(
  Effect.map(TracingConfig, ({ endpoint, serviceName }) =>
    Option.match(endpoint, {
      onNone: () => Layer.setTracerEnabled(false),
      onSome: (url) =>
        OtlpTracer.layer({ url: tracesUrl(url), resource: { serviceName } }).pipe(
          Layer.provide(OtlpSerialization.layerJson),
          Layer.provide(NodeHttpClient.layerUndici)
        )
    })
  )
)
