import { ContactId } from "@cisbook/core/Ids"
import type { ReturnDraft } from "@cisbook/core/returns/ReturnDraft"
import { MonthlyReturnDraftDto } from "@cisbook/sdk/MonthlyReturnDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { monthlyReturnDraftJson } from "../src/dto/MonthlyReturnDto.js"

const payment = (n: number, amount: number, grossAmount: number, materials: number, deducted: number) => ({
  purchaseInvoice: `0197a3c4-0000-7000-8000-00000000000${n}`,
  invoiceNumber: `B-${n}`,
  payment: `0197a3c4-1111-7000-8000-00000000000${n}`,
  date: `2026-05-0${n}`,
  amount,
  grossAmount,
  materials,
  deducted
})

// Pence that are not whole pounds, a single penny, nothing, and the largest amount the service takes.
const draft: ReturnDraft = {
  periodEnd: "2026-06-05",
  dueDate: "2026-06-19",
  nilReturn: false,
  totals: { grossAmount: 99_999_999_999, materials: 36_701, deducted: 44_029 },
  lines: [
    {
      contactId: ContactId.make("0197a3c4-2222-7000-8000-000000000001"),
      contactCode: "AARDVARK",
      name: "Aardvark Roofing",
      utr: null,
      verificationNumber: null,
      taxTreatment: null,
      grossAmount: 1,
      materials: 0,
      deducted: 0,
      payments: [payment(1, 1, 1, 0, 0)]
    },
    {
      contactId: ContactId.make("0197a3c4-2222-7000-8000-000000000002"),
      contactCode: "JOHNSMIT",
      name: "John Smith Groundworks",
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 99_999_999_998,
      materials: 36_701,
      deducted: 44_029,
      payments: [payment(2, 212_729, 256_729, 36_701, 44_000), payment(3, 29, 99_999_743_269, 0, 29)]
    }
  ],
  warnings: [{ contactCode: "AARDVARK", code: "VerifyAgain", message: "Verify it again." }]
}

describe("A drafted return's JSON, built without the schema", () => {
  it("is what MonthlyReturnDraftDto decodes to the draft and encodes back, key for key", () => {
    const json = monthlyReturnDraftJson(draft)
    const decoded = Schema.decodeUnknownSync(MonthlyReturnDraftDto)(json)
    expect(decoded).toEqual({
      periodEnd: draft.periodEnd,
      dueDate: draft.dueDate,
      nilReturn: draft.nilReturn,
      totals: draft.totals,
      lines: draft.lines.map(({ contactCode, contactId: _, ...line }) => ({ contact: contactCode, ...line })),
      warnings: [{ contact: "AARDVARK", code: "VerifyAgain", message: "Verify it again." }]
    })
    expect(Schema.encodeSync(MonthlyReturnDraftDto)(decoded)).toStrictEqual(json)
    expect(json.lines[1]?.payments[1]).toMatchObject({ amount: 0.29, grossAmount: 999_997_432.69, deducted: 0.29 })
  })
})
