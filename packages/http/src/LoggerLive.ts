import { Config, Effect, Layer, Logger, LogLevel } from "effect"

/** logfmt lines at LOG_LEVEL (default Info); LOG_FORMAT=json for one JSON object a line. */
export const LoggerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const level = yield* Config.withDefault(Config.logLevel("LOG_LEVEL"), LogLevel.Info)
    const format = yield* Config.withDefault(Config.literal("logfmt", "json")("LOG_FORMAT"), "logfmt")
    return Layer.merge(format === "json" ? Logger.json : Logger.logFmt, Logger.minimumLogLevel(level))
  })
)
