import { Clock } from "@cisbook/core/system/Clock"
import { DirectDebitControl, DirectDebitFake } from "@cisbook/testkit/DirectDebitFake"
import { DirectDebitDriver } from "@cisbook/testkit/DirectDebitDriver"
import { directDebitContract } from "@cisbook/testkit/contracts/DirectDebitContract"
import { Effect, Layer } from "effect"

/** The customer finishes the page, the bank refuses a payment: the fake's control says so. */
const Driver = Layer.effect(
  DirectDebitDriver,
  Effect.map(DirectDebitControl, (control) =>
    DirectDebitDriver.of({
      finishPage: (setup) => control.finish(setup.id),
      failPayment: (paymentId) => control.setPaymentStatus(paymentId, "failed")
    })
  )
)

/** The wall clock, as a provider's is. */
const WallClock = Layer.succeed(Clock, Clock.of({ now: Effect.sync(() => new Date()) }))

directDebitContract("the memory fake", Layer.provideMerge(Driver, DirectDebitFake).pipe(Layer.provide(WallClock)))
