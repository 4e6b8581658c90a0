import { DirectDebitControl, DirectDebitFake } from "@cisbook/testkit/DirectDebitFake"
import { DirectDebitDriver } from "@cisbook/testkit/DirectDebitDriver"
import { directDebitContract } from "@cisbook/testkit/contracts/DirectDebitContract"
import { Effect, Layer } from "effect"

/** The customer finishes the page: the fake's control says so. */
const Driver = Layer.effect(
  DirectDebitDriver,
  Effect.map(DirectDebitControl, (control) => DirectDebitDriver.of({ finishPage: (setup) => control.finish(setup.id) }))
)

directDebitContract("the memory fake", Layer.provideMerge(Driver, DirectDebitFake))
