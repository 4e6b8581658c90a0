import { goCardlessDirectDebit } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { DirectDebitDriver } from "@cisbook/testkit/DirectDebitDriver"
import { directDebitContract } from "@cisbook/testkit/contracts/DirectDebitContract"
import { Effect, Layer, Redacted } from "effect"
import { recordedGoCardless } from "./RecordedGoCardless.js"

/** The GoCardless adapter over answers recorded from GoCardless's published examples. */
directDebitContract(
  "the GoCardless adapter over recorded GoCardless answers",
  Layer.unwrapScoped(
    Effect.map(recordedGoCardless, ({ baseUrl, finishPage }) =>
      Layer.merge(
        goCardlessDirectDebit({ baseUrl, accessToken: Redacted.make("sandbox_recorded") }),
        Layer.succeed(DirectDebitDriver, DirectDebitDriver.of({ finishPage }))
      )
    )
  )
)
