import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { CryptoLive } from "@cisbook/adapters/system/CryptoLive"
import { IdGeneratorLive } from "@cisbook/adapters/system/IdGeneratorLive"
import { ReceivedStatements } from "@cisbook/core/statements/ReceivedStatements"
import { StatementDelivery } from "@cisbook/core/statements/StatementDelivery"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, Scope, TestClock, TestContext } from "effect"
import { statementDeliverer } from "../src/workers/StatementDeliverer.js"
import { deliveryCounts, queuedDeliveries } from "./QueuedDeliveries.js"
import { appOver, eventually } from "./WorkerTestApp.js"

const LEASE = Duration.seconds(60)

/** The app over a database, its clock Effect's own: moved by TestClock where a test says, real time otherwise. */
const app = appOver(EphemeralDatabase, Layer.mergeAll(ClockOfEffect, IdGeneratorLive, CryptoLive))

/** Runs a test with the TestClock as Effect's clock, starting at the real time. */
const onTestClock = <A, E, R>(test: Effect.Effect<A, E, R>) =>
  Effect.zipRight(TestClock.setTime(Date.now()), test).pipe(Effect.provide(TestContext.TestContext))

/** Runs a deliverer until the returned effect closes it (as SIGTERM, or a process dying, would). */
const startDeliverer = Effect.gen(function* () {
  const scope = yield* Scope.make()
  yield* Layer.buildWithScope(
    statementDeliverer({ pollInterval: Duration.millis(20), concurrency: 4, lease: LEASE }),
    scope
  )
  return Scope.close(scope, Exit.void)
})

layer(app, { excludeTestServices: true, timeout: "120 seconds" })("statement deliverer", (it) => {
  it.scoped("two deliverers racing over the same queue deliver each statement once, with one event each", () =>
    Effect.gen(function* () {
      const { contractor, returns, sub, subcontractor } = yield* queuedDeliveries(40)
      const first = yield* startDeliverer
      const second = yield* startDeliverer
      const counts = deliveryCounts(contractor.id, subcontractor.id)
      yield* eventually(counts, (c) => c.delivered === returns.length)
      yield* first
      yield* second
      expect(yield* counts).toEqual({ statements: 40, sources: 40, events: 40, delivered: 40, due: 0 })
      const listed = yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, subcontractor.code))
      expect(listed.map((r) => r.statement.periodEnd)).toEqual(returns.map((r) => r.periodEnd))
    })
  )

  it.effect("a deliverer whose lease ran out records nothing; the one that took over delivers once (TestClock)", () =>
    onTestClock(
      Effect.gen(function* () {
        const { contractor, subcontractor } = yield* queuedDeliveries(1)
        const delivery = yield* StatementDelivery
        const claimMine = Effect.map(delivery.claim(1000, LEASE), (all) =>
          all.filter((c) => c.tenantId === contractor.id)
        )
        const slow = yield* Effect.forEach(yield* claimMine, delivery.attempt)
        expect(slow).toHaveLength(1)
        yield* TestClock.adjust(Duration.subtract(LEASE, Duration.millis(1)))
        expect(yield* claimMine).toEqual([])
        yield* TestClock.adjust(Duration.millis(1))
        const taken = yield* Effect.forEach(yield* claimMine, delivery.attempt)
        expect(taken).toHaveLength(1)
        yield* delivery.record(slow)
        const counts = deliveryCounts(contractor.id, subcontractor.id)
        expect(yield* counts).toEqual({ statements: 0, sources: 0, events: 0, delivered: 0, due: 1 })
        yield* delivery.record(taken)
        yield* delivery.record(taken)
        yield* delivery.record(slow)
        expect(yield* counts).toEqual({ statements: 1, sources: 1, events: 1, delivered: 1, due: 0 })
      })
    )
  )

  it.effect(
    "a deliverer that dies before recording leaves the delivery to another once its lease runs out (TestClock)",
    () =>
      onTestClock(
        Effect.gen(function* () {
          const { contractor, subcontractor } = yield* queuedDeliveries(3)
          const delivery = yield* StatementDelivery
          const claimMine = Effect.map(delivery.claim(1000, LEASE), (all) =>
            all.filter((c) => c.tenantId === contractor.id)
          )
          // Claimed and attempted; the process died before it recorded anything.
          expect(yield* Effect.forEach(yield* claimMine, delivery.attempt)).toHaveLength(3)
          yield* TestClock.adjust(Duration.seconds(59))
          expect(yield* claimMine).toEqual([])
          yield* TestClock.adjust(Duration.seconds(1))
          yield* delivery.record(yield* Effect.forEach(yield* claimMine, delivery.attempt))
          expect(yield* deliveryCounts(contractor.id, subcontractor.id)).toEqual({
            statements: 3,
            sources: 3,
            events: 3,
            delivered: 3,
            due: 0
          })
        })
      )
  )
})
