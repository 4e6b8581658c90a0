import { HttpMiddleware } from "@effect/platform"
import { Effect, FiberRef, LogLevel } from "effect"

/**
 * The platform's request log line, at Info, only when Info lines are written at all: building
 * the line's spans and annotations costs about a tenth of a list request even when the level
 * then drops it.
 */
export const requestLogger = HttpMiddleware.make((app) => {
  const logged = HttpMiddleware.logger(app)
  return Effect.flatMap(FiberRef.get(FiberRef.currentMinimumLogLevel), (minimum) =>
    LogLevel.greaterThan(minimum, LogLevel.Info) ? app : logged
  )
})
