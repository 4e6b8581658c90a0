import { Clock } from "@cisbook/core/ports/Clock"
import { Effect, Layer } from "effect"

export const ClockLive = Layer.succeed(Clock, Clock.of({ now: Effect.sync(() => new Date()) }))
