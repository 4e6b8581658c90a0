import { Config, Effect, Layer, Logger, LogLevel } from "effect"
import { logLevelConfig } from "./LogLevelConfig.js"

/** LOG_LEVEL (default Info) and LOG_FORMAT (logfmt, or json for one JSON object a line). */
export const LoggingConfig = Config.all({
  level: Config.withDefault(logLevelConfig("LOG_LEVEL"), LogLevel.Info),
  format: Config.withDefault(Config.literal("logfmt", "json")("LOG_FORMAT"), "logfmt")
})

export const LoggerLive = Layer.unwrapEffect(
  Effect.map(LoggingConfig, ({ format, level }) =>
    Layer.merge(format === "json" ? Logger.json : Logger.logFmt, Logger.minimumLogLevel(level))
  )
)
