import { goCardlessDirectDebit } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { DirectDebitDriver } from "@cisbook/testkit/DirectDebitDriver"
import { directDebitContract, setupFor } from "@cisbook/testkit/contracts/DirectDebitContract"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { recordedGoCardless, type Replay } from "./RecordedGoCardless.js"

class Recorded extends Context.Tag("test/RecordedGoCardless")<Recorded, Replay>() {}

/** Pages of two, so that a mandate's third payment is on a second page. */
const PAGE = 2

/**
 * The GoCardless adapter over GoCardless's own published answers (fixtures/gocardless), the
 * customer's page and the bank's refusals played by the replay.
 */
const Adapter = Layer.unwrapScoped(
  Effect.map(recordedGoCardless, (replay) =>
    Layer.mergeAll(
      goCardlessDirectDebit({
        baseUrl: replay.baseUrl,
        accessToken: Redacted.make("sandbox_recorded"),
        pageLimit: PAGE
      }),
      Layer.succeed(
        DirectDebitDriver,
        DirectDebitDriver.of({ finishPage: replay.finishPage, failPayment: replay.failPayment })
      ),
      Layer.succeed(Recorded, replay)
    )
  )
)

directDebitContract("the GoCardless adapter over GoCardless's published answers", Adapter)

layer(Adapter)("the GoCardless adapter's calls, as GoCardless's published answers take them", (it) => {
  it.effect("follows the after cursor to a second page until it is null, as GoCardless's recorded pages have it", () =>
    Effect.gen(function* () {
      const provider = yield* DirectDebit
      const replay = yield* Recorded
      const started = yield* provider.startMandateSetup(setupFor("ada@example.com"), randomUUID())
      yield* replay.finishPage(started)
      const mandateId = yield* provider.completeMandateSetup(started.id)
      // Fulfilled by the adapter (the published flow does not fulfil by itself), once.
      expect(replay.seen.filter((s) => s.path === `/billing_requests/${started.id}/actions/fulfil`)).toHaveLength(1)
      const made = []
      for (let n = 0; n < PAGE + 1; n++) {
        const payment = {
          amount: 240,
          currency: "GBP" as const,
          mandateId,
          description: `CB-00010${n}`,
          chargeDate: null,
          invoice: { id: randomUUID(), number: `CB-00010${n}` }
        }
        made.push((yield* provider.createPayment(payment, randomUUID())).id)
      }
      const before = replay.seen.length
      expect((yield* provider.listPayments(mandateId)).map((p) => p.id)).toEqual([...made].reverse())
      expect(replay.seen.slice(before).map((s) => s.path)).toEqual([
        `/payments?mandate=${mandateId}&limit=${PAGE}`,
        `/payments?mandate=${mandateId}&limit=${PAGE}&after=${made[1]}`
      ])
      // Creations carry their Idempotency-Key; the actions (fulfil) none.
      const posts = replay.seen.filter((s) => s.method === "POST")
      expect(posts.filter((s) => s.path.includes("/actions/")).map((s) => s.idempotencyKey)).toEqual([undefined])
      expect(posts.filter((s) => !s.path.includes("/actions/")).every((s) => s.idempotencyKey !== undefined)).toBe(true)
    })
  )
})
