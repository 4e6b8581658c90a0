import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { XMLParser } from "fast-xml-parser"
import { SandboxReturnOffice } from "../src/taxauthority/SandboxReturnOffice.js"

const line = (deducted: number, utr: string | null = "2234567890") =>
  new ReturnLine({
    contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
    contactCode: "BRICKS",
    name: "Bricks Ltd",
    utr,
    verificationNumber: "V1234567890",
    taxTreatment: "Net",
    grossAmount: 1_000_000,
    materials: 0,
    deducted
  })

const submission = (id: string, lines: ReadonlyArray<ReturnLine>, contractorUtr = "8456789123") => ({
  id: MonthlyReturnId.make(id),
  periodEnd: "2026-06-05",
  nilReturn: false,
  inactive: false,
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: contractorUtr }),
  lines
})

const office = Effect.provide(SandboxReturnOffice, SandboxReturnOffice.Default)

describe("the sandbox's return office", () => {
  it.effect(
    "takes a return under a correlation id, finds it by the return's id, answers the poll, and counts what it received",
    () =>
      Effect.gen(function* () {
        const hmrc = yield* office
        const june = submission("00000000-0000-4000-8000-0000000000a1", [line(50_000)])
        expect(yield* hmrc.find(june.id)).toEqual(Option.none())
        const sent = yield* hmrc.send(june)
        assertAcknowledged(sent)
        expect(yield* hmrc.find(june.id)).toEqual(Option.some(sent.correlationId))
        expect(yield* hmrc.poll(sent.correlationId, june)).toEqual({ _tag: "Accepted" })
        const received = Option.getOrThrow(yield* hmrc.received(june.id))
        expect(received.received).toBe(1)
        const parsed = new XMLParser().parse(received.message)
        expect(parsed.GovTalkMessage.Header.MessageDetails.TransactionID).toBe("000000000000400080000000000000A1")
        expect(parsed.GovTalkMessage.Body.IRenvelope.CISreturn.Subcontractor.TotalDeducted).toBe(500)
        // Sent again, it is received again: the filer must not send twice.
        yield* hmrc.send(june)
        expect(Option.map(yield* hmrc.received(june.id), (r) => r.received)).toEqual(Option.some(2))
      })
  )

  it.effect("refuses unsent, with HMRC's reasons, a return that breaks its rules", () =>
    Effect.gen(function* () {
      const hmrc = yield* office
      const bad = submission("00000000-0000-4000-8000-0000000000a2", [line(500_000)], "1234567890")
      expect(yield* hmrc.send(bad)).toEqual({
        _tag: "Rejected",
        reason:
          "The contractor's UTR 1234567890 is not valid. Bricks Ltd (BRICKS): £5000.00 deducted is more than the 20 % (Net) rate allows: £2000.00."
      })
      expect(yield* hmrc.received(bad.id)).toEqual(Option.none())
    })
  )

  it.effect("answers the sandbox's rejections at the poll, also for a correlation id it does not hold", () =>
    Effect.gen(function* () {
      const hmrc = yield* office
      const rejected = submission("00000000-0000-4000-8000-0000000000a3", [line(99_999)])
      const sent = yield* hmrc.send(rejected)
      assertAcknowledged(sent)
      expect((yield* hmrc.poll(sent.correlationId, rejected))._tag).toBe("Rejected")
      // Another process's correlation id: answered from the return itself.
      expect((yield* (yield* office).poll(sent.correlationId, rejected))._tag).toBe("Rejected")
    })
  )
})

function assertAcknowledged(sent: {
  readonly _tag: string
}): asserts sent is { _tag: "Acknowledged"; correlationId: string } {
  expect(sent._tag).toBe("Acknowledged")
}
