import { Clock } from "@cisbook/core/system/Clock"
import { Effect, Layer } from "effect"

export const ClockLive = Layer.succeed(Clock, Clock.of({ now: Effect.sync(() => new Date()) }))
