import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { requestLogger } from "../src/logging/RequestLogger.js"

/** The log lines one request through the middleware writes, at a minimum level. */
const linesAt = (minimum: LogLevel.LogLevel) =>
  Effect.gen(function* () {
    const lines: Array<unknown> = []
    const capture = Logger.make(({ logLevel, message }) => lines.push([logLevel.label, message]))
    yield* requestLogger(HttpServerResponse.text("ok")).pipe(
      Effect.provideService(
        HttpServerRequest.HttpServerRequest,
        HttpServerRequest.fromWeb(new Request("http://cisbook.test/health"))
      ),
      Effect.provide(Layer.merge(Logger.replace(Logger.defaultLogger, capture), Logger.minimumLogLevel(minimum)))
    )
    return lines
  })

describe("requestLogger", () => {
  it.effect("writes one Info line a request when Info lines are written", () =>
    Effect.gen(function* () {
      expect(yield* linesAt(LogLevel.Info)).toEqual([["INFO", ["Sent HTTP response"]]])
      expect(yield* linesAt(LogLevel.Debug)).toHaveLength(1)
    })
  )

  it.effect("writes nothing at Warning and above", () =>
    Effect.gen(function* () {
      expect(yield* linesAt(LogLevel.Warning)).toEqual([])
      expect(yield* linesAt(LogLevel.Error)).toEqual([])
    })
  )
})
