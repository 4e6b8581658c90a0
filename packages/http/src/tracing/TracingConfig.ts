import { Config, Option } from "effect"

/**
 * OTEL_EXPORTER_OTLP_ENDPOINT (the OTLP/HTTP collector's base URL; traces go to its /v1/traces)
 * and OTEL_SERVICE_NAME (default cisbook). Without the endpoint there is no tracer at all.
 */
export const TracingConfig = Config.all({
  endpoint: Config.option(Config.string("OTEL_EXPORTER_OTLP_ENDPOINT")).pipe(
    Config.map(Option.filter((url) => url.trim() !== "")),
    Config.validate({
      message: "OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL",
      validation: Option.match({ onNone: () => true, onSome: (url) => URL.canParse(url) && /^https?:/.test(url) })
    })
  ),
  serviceName: Config.withDefault(Config.string("OTEL_SERVICE_NAME"), "cisbook")
})

/** Where spans go, when they go anywhere. */
export const tracesUrl = (endpoint: string) => `${endpoint.replace(/\/+$/, "")}/v1/traces`
