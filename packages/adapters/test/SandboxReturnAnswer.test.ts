import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { describe, expect, it } from "@effect/vitest"
import { sandboxReturnAnswer } from "../src/taxauthority/SandboxReturnAnswer.js"

const line = (name: string, utr: string | null, deducted: number) =>
  new ReturnLine({
    contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
    contactCode: name.toUpperCase(),
    name,
    utr,
    verificationNumber: "V1234567890",
    taxTreatment: "Net",
    grossAmount: 1_000_000,
    materials: 0,
    deducted
  })

const submission = (...lines: Array<ReturnLine>) => ({
  id: MonthlyReturnId.make("00000000-0000-4000-8000-000000000002"),
  periodEnd: "2026-06-05",
  nilReturn: false,
  inactive: false,
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123" }),
  lines
})

describe("the sandbox tax authority's answer to a return", () => {
  it("accepts a return whose every line has a valid UTR", () => {
    expect(
      sandboxReturnAnswer(submission(line("Bricks", "2234567890", 50000), line("Stones", "4345678912", 0)))
    ).toEqual({
      _tag: "Accepted"
    })
  })

  it("rejects one with a line without a valid UTR, naming it", () => {
    expect(sandboxReturnAnswer(submission(line("Bricks", "2234567890", 0), line("Stones", "1234567890", 0)))).toEqual({
      _tag: "Rejected",
      reason: "No valid UTR for Stones (STONES)."
    })
    expect(sandboxReturnAnswer(submission(line("Nobody", null, 0)))._tag).toBe("Rejected")
  })

  it("rejects one whose deductions total exactly £999.99, and accepts a penny either side", () => {
    expect(sandboxReturnAnswer(submission(line("A", "2234567890", 50000), line("B", "4345678912", 49999)))._tag).toBe(
      "Rejected"
    )
    expect(sandboxReturnAnswer(submission(line("A", "2234567890", 99998)))._tag).toBe("Accepted")
    expect(sandboxReturnAnswer(submission(line("A", "2234567890", 100000)))._tag).toBe("Accepted")
  })
})
