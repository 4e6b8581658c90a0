import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { MonthlyReturnRepo, type RecordedSending } from "@cisbook/core/returns/MonthlyReturnRepo"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { HmrcReceipt, MonthlyReturn, ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { expect } from "@effect/vitest"
import { Effect, Either, Option, Schema } from "effect"
import { otherCisScheme, sampleCisScheme } from "../CisSchemeFixtures.js"
import { storedDeclarations } from "../DeclarationsFixtures.js"
import { ReturnDeclarations } from "@cisbook/core/returns/ReturnDeclarations"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

export const line = (code: string, deducted = 12000) =>
  new ReturnLine({
    contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
    contactCode: code,
    name: `${code} Ltd`,
    utr: "2234567890",
    verificationNumber: null,
    taxTreatment: "Net",
    grossAmount: 100000,
    materials: 40000,
    deducted,
    cisDetails: Schema.decodeSync(CisDetails)({
      type: "Company",
      tradingName: `${code} Ltd`,
      utr: "2234567890",
      companyNumber: "SC123456"
    })
  })

export const newReturn = (tenant: Tenant, periodEnd: string, submittedMinutes: number) =>
  Effect.map(
    fresh,
    ({ id }) =>
      new MonthlyReturn({
        id: MonthlyReturnId.make(id),
        tenantId: tenant.id,
        periodEnd,
        status: "Submitted",
        contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "1234567890" }),
        lines: [line("ACME"), line("BOB", 0)],
        nilReturn: false,
        inactive: false,
        declarations: storedDeclarations(at(submittedMinutes)),
        submittedAt: at(submittedMinutes),
        acceptedAt: null,
        rejectionReason: null,
        invoiced: false
      })
  )

const stored = (tenant: Tenant, periodEnd: string, submittedMinutes = 0) =>
  Effect.tap(newReturn(tenant, periodEnd, submittedMinutes), (r) =>
    Effect.flatMap(MonthlyReturnRepo, (repo) => repo.insert(r))
  )

/** Claims what is due far in the future, so that every test's own returns are among them. */
const ENDPOINT = "https://transaction-engine.example/poll"

/** When the credentials a return was sent with were set. */
const CREDENTIALS_SET_AT = at(1)

/** A sending as a filer records it after HMRC's acknowledgement. */
const sending = (correlationId: string, gatewayTest = false): RecordedSending => ({
  correlationId,
  endpoint: ENDPOINT,
  pollIntervalSeconds: 10,
  irmark: `IRMARK/${correlationId}=`,
  credentialsSetAt: CREDENTIALS_SET_AT,
  gatewayTest
})

/** HMRC's acceptance, with its receipt, at `when`. */
export const accepted = (when: Date, correlationId = "C0FFEE00", gatewayTest = false) =>
  ({
    _tag: "Accepted",
    at: when,
    gatewayTest,
    receipt: new HmrcReceipt({
      correlationId,
      irmark: `IRMARK/${correlationId}=`,
      message: "HMRC has received the IR-CIS-CIS300MR document.",
      receivedAt: when,
      irmarkVerified: true
    })
  }) as const

const claimAll = (now: Date, leaseUntil: Date) =>
  Effect.flatMap(MonthlyReturnRepo, (repo) => repo.claimDue(now, leaseUntil, 1000))

const idsOf = (claimed: ReadonlyArray<{ readonly monthlyReturn: { readonly id: MonthlyReturnId } }>) =>
  claimed.map((c) => c.monthlyReturn.id)

export const monthlyReturnRepoContract = (it: ContractIt) => {
  it.effect("keeps a nil return (no lines, inactive) with the contractor's scheme, and claims it like any other", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const base = yield* newReturn(tenant, "2026-07-05", 0)
      const nil = new MonthlyReturn({
        ...base,
        contractor: new ReturnContractor({ ...base.contractor, scheme: sampleCisScheme }),
        lines: [],
        nilReturn: true,
        inactive: true,
        declarations: new ReturnDeclarations({
          employmentStatus: false,
          subcontractorsVerified: false,
          informationCorrect: true,
          declaredBy: "0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d",
          declaredAt: at(1)
        })
      })
      yield* repo.insert(nil)
      expect(yield* repo.find(tenant.id, nil.id)).toEqual(Option.some(nil))
      expect(yield* repo.list(tenant.id)).toEqual([nil])
      const claimed = (yield* claimAll(at(10_000), at(10_001))).filter((c) => c.monthlyReturn.id === nil.id)
      expect(claimed.map((c) => c.monthlyReturn)).toEqual([nil])
    })
  )

  it.effect("keeps every member of a return, found and listed in its tenant only, latest period first", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const june = yield* stored(tenant, "2026-06-05")
      const may = yield* stored(tenant, "2026-05-05", 5)
      expect(yield* repo.find(tenant.id, june.id)).toEqual(Option.some(june))
      expect(yield* repo.find(other.id, june.id)).toEqual(Option.none())
      expect((yield* repo.list(tenant.id)).map((r) => r.periodEnd)).toEqual(["2026-06-05", "2026-05-05"])
      expect(yield* repo.list(other.id)).toEqual([])
      expect(may.lines).toHaveLength(2)
    })
  )

  it.effect(
    "a Held return is due no more, still the month's live return, forgets its sending; its tenant's held for credentials are released (under a corrected scheme)",
    () =>
      Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const tenant = yield* storedTenant
        const other = yield* storedTenant
        const mine = yield* stored(tenant, "2026-04-05")
        const unknown = yield* stored(tenant, "2026-02-05")
        const theirs = yield* stored(other, "2026-04-05")
        const claimed = (yield* claimAll(at(20_000), at(20_001))).filter((c) =>
          [mine.id, unknown.id, theirs.id].includes(c.monthlyReturn.id)
        )
        expect(claimed).toHaveLength(3)
        for (const c of claimed) {
          yield* repo.recordSent(c, sending(`SENT${c.monthlyReturn.id.slice(0, 4)}`), at(20_000))
          expect(
            yield* repo.record(
              c,
              c.monthlyReturn.id === unknown.id
                ? { _tag: "Held", heldFor: "UnknownAnswer", reason: "HMRC's answer is unknown" }
                : { _tag: "Held", heldFor: "Credentials", reason: "HMRC refused (1046)" }
            )
          ).toBe(true)
        }
        const held = yield* repo.find(tenant.id, mine.id)
        expect(Option.map(held, (r) => [r.status, r.heldFor, r.heldReason, r.rejectionReason])).toEqual(
          Option.some(["Held", "Credentials", "HMRC refused (1046)", null])
        )
        expect(idsOf(yield* claimAll(at(40_000), at(40_001)))).not.toContain(mine.id)
        const again = yield* Effect.either(stored(tenant, "2026-04-05"))
        expect(Either.isLeft(again) && again.left.key).toBe("period")
        // Released for credentials (a corrected scheme): only the one held for credentials, under the new scheme.
        const released = yield* repo.releaseHeld(tenant.id, at(50_000), otherCisScheme)
        expect(released.map((r) => [r.id, r.status, r.heldFor, r.heldReason, r.contractor.scheme])).toEqual([
          [mine.id, "Submitted", null, null, otherCisScheme]
        ])
        expect(yield* repo.releaseHeld(tenant.id, at(50_000))).toEqual([])
        const due = yield* claimAll(at(50_000), at(50_001))
        expect(idsOf(due)).toContain(mine.id)
        expect(idsOf(due)).not.toContain(unknown.id)
        expect(idsOf(due)).not.toContain(theirs.id)
        // Held, it kept nothing of its sending: released, it is sent afresh.
        expect(due.find((c) => c.monthlyReturn.id === mine.id)?.sent).toBeNull()
        expect(Option.map(yield* repo.find(tenant.id, mine.id), (r) => r.contractor.scheme)).toEqual(
          Option.some(otherCisScheme)
        )
        expect(Option.map(yield* repo.find(other.id, theirs.id), (r) => r.status)).toEqual(Option.some("Held"))
        // The one held for an unknown answer is released on its own, by a person: due at once, sent afresh.
        expect(yield* repo.release(tenant.id, mine.id, at(60_000))).toBe(false)
        expect(yield* repo.release(other.id, unknown.id, at(60_000))).toBe(false)
        expect(yield* repo.release(tenant.id, unknown.id, at(60_000))).toBe(true)
        expect(yield* repo.release(tenant.id, unknown.id, at(60_000))).toBe(false)
        expect(Option.map(yield* repo.find(tenant.id, unknown.id), (r) => [r.status, r.heldFor, r.heldReason])).toEqual(
          Option.some(["Submitted", null, null])
        )
        const releasedDue = (yield* claimAll(at(60_000), at(60_001))).find((c) => c.monthlyReturn.id === unknown.id)
        expect([releasedDue?.sent, releasedDue?.unknownAnswer, releasedDue?.attempts]).toEqual([null, null, 0])
      })
  )

  it.effect("holds one Submitted or Accepted return per tenant and tax month; a Rejected one may be filed again", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const first = yield* stored(tenant, "2026-03-05")
      const again = yield* Effect.either(stored(tenant, "2026-03-05"))
      expect(Either.isLeft(again) && again.left.key).toBe("period")
      const other = yield* storedTenant
      yield* stored(other, "2026-03-05")
      const [claimed] = (yield* claimAll(at(10_000), at(10_001))).filter((c) => c.monthlyReturn.id === first.id)
      expect(yield* repo.record(claimed!, { _tag: "Rejected", reason: "UTR not known" })).toBe(true)
      const refiled = yield* stored(tenant, "2026-03-05", 20)
      expect((yield* repo.list(tenant.id)).map((r) => [r.id, r.status])).toEqual([
        [refiled.id, "Submitted"],
        [first.id, "Rejected"]
      ])
    })
  )

  it.effect("finds the tenant's filed return for a month: Submitted, Held or Accepted, never a Rejected one", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const first = yield* stored(tenant, "2026-02-05")
      expect(Option.map(yield* repo.filedFor(tenant.id, "2026-02-05"), (r) => r.id)).toEqual(Option.some(first.id))
      expect(yield* repo.filedFor(tenant.id, "2026-03-05")).toEqual(Option.none())
      const other = yield* storedTenant
      expect(yield* repo.filedFor(other.id, "2026-02-05")).toEqual(Option.none())
      const [claimed] = (yield* claimAll(at(10_000), at(10_001))).filter((c) => c.monthlyReturn.id === first.id)
      expect(yield* repo.record(claimed!, { _tag: "Rejected", reason: "UTR not known" })).toBe(true)
      expect(yield* repo.filedFor(tenant.id, "2026-02-05")).toEqual(Option.none())
      // Holding a month is for the transaction that holds it; another month, or tenant, is not held.
      yield* repo.holdTaxMonth(tenant.id, "2026-02-05")
      yield* repo.holdTaxMonth(other.id, "2026-02-05")
    })
  )

  it.effect("leases a due return to one filer; the lease running out makes it due again", () =>
    Effect.gen(function* () {
      const tenant = yield* storedTenant
      const r = yield* stored(tenant, "2026-01-05")
      const first = yield* claimAll(at(10_000), at(10_005))
      expect(idsOf(first)).toContain(r.id)
      expect(idsOf(yield* claimAll(at(10_001), at(10_006)))).not.toContain(r.id)
      const retaken = (yield* claimAll(at(10_005), at(10_010))).find((c) => c.monthlyReturn.id === r.id)
      expect(retaken?.attempts).toBe(0)
      const repo = yield* MonthlyReturnRepo
      const stale = first.find((c) => c.monthlyReturn.id === r.id)!
      expect(yield* repo.record(stale, accepted(at(10_006)))).toBe(false)
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.status)).toEqual(Option.some("Submitted"))
      expect(yield* repo.record(retaken!, accepted(at(10_007)))).toBe(true)
      const found = yield* repo.find(tenant.id, r.id)
      expect(Option.map(found, (x) => [x.status, x.acceptedAt])).toEqual(Option.some(["Accepted", at(10_007)]))
      expect(idsOf(yield* claimAll(at(20_000), at(20_001)))).not.toContain(r.id)
    })
  )

  it.effect("a retry keeps the return Submitted, counts the attempt and makes it due at the time given", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const r = yield* stored(tenant, "2025-12-05")
      const claimed = (yield* claimAll(at(30_000), at(30_001))).find((c) => c.monthlyReturn.id === r.id)!
      expect(yield* repo.record(claimed, { _tag: "Retry", nextAttemptAt: at(30_100) })).toBe(true)
      expect(idsOf(yield* claimAll(at(30_050), at(30_051)))).not.toContain(r.id)
      const again = (yield* claimAll(at(30_100), at(30_101))).find((c) => c.monthlyReturn.id === r.id)
      expect(again?.attempts).toBe(1)
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.status)).toEqual(Option.some("Submitted"))
    })
  )

  it.effect(
    "records a sent return's correlation id, endpoint and IRmark under the lease; the next claim carries them",
    () =>
      Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const tenant = yield* storedTenant
        const r = yield* stored(tenant, "2025-11-05")
        const first = (yield* claimAll(at(40_000), at(40_005))).find((c) => c.monthlyReturn.id === r.id)!
        expect(first.sent).toBeNull()
        expect(yield* repo.recordSent(first, sending("C0FFEE01"), at(40_001))).toBe(true)
        // The filer dies here: the lease runs out and the next filer learns where to poll.
        const second = (yield* claimAll(at(40_005), at(40_010))).find((c) => c.monthlyReturn.id === r.id)!
        expect(second.sent).toEqual({
          correlationId: "C0FFEE01",
          endpoint: ENDPOINT,
          irmark: "IRMARK/C0FFEE01=",
          credentialsSetAt: CREDENTIALS_SET_AT,
          pollIntervalSeconds: 10,
          gatewayTest: false
        })
        expect(second.unknownAnswer).toBeNull()
        expect(yield* repo.recordSent(first, sending("STALE"), at(40_006))).toBe(false)
        // Accepted: the receipt is the recorded correlation id and IRmark with HMRC's text.
        expect(yield* repo.record(second, accepted(at(40_007), "C0FFEE01"))).toBe(true)
        expect(yield* repo.recordSent(second, sending("LATE"), at(40_008))).toBe(false)
        const found = yield* repo.find(tenant.id, r.id)
        expect(Option.map(found, (x) => x.hmrcReceipt)).toEqual(
          Option.some(
            new HmrcReceipt({
              correlationId: "C0FFEE01",
              irmark: "IRMARK/C0FFEE01=",
              message: "HMRC has received the IR-CIS-CIS300MR document.",
              receivedAt: at(40_007),
              irmarkVerified: true
            })
          )
        )
      })
  )

  it.effect("a return not accepted has no receipt", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const r = yield* stored(tenant, "2025-09-05")
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.hmrcReceipt)).toEqual(Option.some(null))
      const claimed = (yield* claimAll(at(60_000), at(60_001))).find((c) => c.monthlyReturn.id === r.id)!
      yield* repo.recordSent(claimed, sending("C0FFEE03"), at(60_000))
      expect(yield* repo.record(claimed, { _tag: "Rejected", reason: "No." })).toBe(true)
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.hmrcReceipt)).toEqual(Option.some(null))
    })
  )

  it.effect(
    "a pending answer makes the return due at the time given, at the endpoint HMRC last named, without counting an attempt",
    () =>
      Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const tenant = yield* storedTenant
        const r = yield* stored(tenant, "2025-10-05")
        const claimed = (yield* claimAll(at(50_000), at(50_001))).find((c) => c.monthlyReturn.id === r.id)!
        yield* repo.recordSent(claimed, sending("C0FFEE02"), at(50_000))
        expect(yield* repo.record(claimed, { _tag: "Pending", nextAttemptAt: at(50_100), endpoint: ENDPOINT })).toBe(
          true
        )
        expect(idsOf(yield* claimAll(at(50_050), at(50_051)))).not.toContain(r.id)
        const again = (yield* claimAll(at(50_100), at(50_101))).find((c) => c.monthlyReturn.id === r.id)!
        expect([again.attempts, again.sent?.correlationId, again.sent?.endpoint]).toEqual([0, "C0FFEE02", ENDPOINT])
        // Acknowledged again at another endpoint, found there by HMRC's data request: both recorded.
        const NEXT = "https://transaction-engine.example/poll/2"
        expect(
          yield* repo.record(again, {
            _tag: "Pending",
            nextAttemptAt: at(50_200),
            endpoint: NEXT,
            unknownAnswer: "RecordSeen"
          })
        ).toBe(true)
        const third = (yield* claimAll(at(50_200), at(50_201))).find((c) => c.monthlyReturn.id === r.id)!
        expect([third.attempts, third.sent?.correlationId, third.sent?.endpoint, third.unknownAnswer]).toEqual([
          0,
          "C0FFEE02",
          NEXT,
          "RecordSeen"
        ])
      })
  )

  it.effect(
    "sent again, a return forgets its sending and is due at the time given; a failed attempt is counted; what HMRC's data request said is kept",
    () =>
      Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const tenant = yield* storedTenant
        const r = yield* stored(tenant, "2025-08-05")
        const claimed = (yield* claimAll(at(70_000), at(70_001))).find((c) => c.monthlyReturn.id === r.id)!
        yield* repo.recordSent(claimed, sending("C0FFEE04"), at(70_000))
        expect(
          yield* repo.record(claimed, {
            _tag: "SendAgain",
            nextAttemptAt: at(70_100),
            failedAttempt: false,
            unknownAnswer: "Resubmitted"
          })
        ).toBe(true)
        expect(idsOf(yield* claimAll(at(70_050), at(70_051)))).not.toContain(r.id)
        const again = (yield* claimAll(at(70_100), at(70_101))).find((c) => c.monthlyReturn.id === r.id)!
        expect([again.sent, again.attempts, again.unknownAnswer]).toEqual([null, 0, "Resubmitted"])
        yield* repo.recordSent(again, sending("C0FFEE05"), at(70_100))
        expect(yield* repo.record(again, { _tag: "SendAgain", nextAttemptAt: at(70_200), failedAttempt: true })).toBe(
          true
        )
        const third = (yield* claimAll(at(70_200), at(70_201))).find((c) => c.monthlyReturn.id === r.id)!
        expect([third.sent, third.attempts, third.unknownAnswer]).toEqual([null, 1, "Resubmitted"])
        expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.status)).toEqual(Option.some("Submitted"))
      })
  )

  it.effect("a return sent as a test says so, accepted as such", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const r = yield* stored(tenant, "2025-07-05")
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.gatewayTest)).toEqual(Option.some(false))
      const claimed = (yield* claimAll(at(80_000), at(80_001))).find((c) => c.monthlyReturn.id === r.id)!
      yield* repo.recordSent(claimed, sending("C0FFEE06", true), at(80_000))
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.gatewayTest)).toEqual(Option.some(true))
      expect(yield* repo.record(claimed, accepted(at(80_001), "C0FFEE06", true))).toBe(true)
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => [x.status, x.gatewayTest])).toEqual(
        Option.some(["Accepted", true])
      )
    })
  )

  it.effect(
    "answers the returns that count for a tenant's tax months: Submitted, Held or Accepted, not Rejected nor sent as a test, with when each was last put to HMRC and its deductions",
    () =>
      Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const tenant = yield* storedTenant
        const submitted = yield* stored(tenant, "2024-01-05", 1)
        const rejected = yield* stored(tenant, "2024-02-05", 2)
        const test = yield* stored(tenant, "2024-03-05", 3)
        const held = yield* stored(tenant, "2024-04-05", 4)
        const released = yield* stored(tenant, "2024-05-05", 5)
        const outside = yield* stored(tenant, "2024-07-05", 6)
        yield* stored(yield* storedTenant, "2024-01-05", 7)
        const claimed = (yield* claimAll(at(90_000), at(90_001))).filter((c) =>
          [rejected.id, test.id, held.id, released.id].includes(c.monthlyReturn.id)
        )
        const of = (id: MonthlyReturnId) => claimed.find((c) => c.monthlyReturn.id === id)!
        yield* repo.record(of(rejected.id), { _tag: "Rejected", reason: "UTR not known" })
        yield* repo.recordSent(of(test.id), sending("C0FFEE07", true), at(90_000))
        yield* repo.record(of(test.id), accepted(at(90_001), "C0FFEE07", true))
        yield* repo.record(of(held.id), { _tag: "Held", heldFor: "UnknownAnswer", reason: "Unknown" })
        yield* repo.record(of(released.id), { _tag: "Held", heldFor: "UnknownAnswer", reason: "Unknown" })
        expect(yield* repo.release(tenant.id, released.id, at(90_500))).toBe(true)
        expect(Option.map(yield* repo.find(tenant.id, released.id), (r) => r.releasedAt)).toEqual(
          Option.some(at(90_500))
        )
        const filings = yield* repo.filings(tenant.id, "2024-01-05", "2024-06-05")
        expect(filings).toEqual([
          {
            id: submitted.id,
            periodEnd: "2024-01-05",
            status: "Submitted",
            nilReturn: false,
            inactive: false,
            filedAt: at(1),
            deducted: 12_000
          },
          {
            id: held.id,
            periodEnd: "2024-04-05",
            status: "Held",
            nilReturn: false,
            inactive: false,
            filedAt: at(4),
            deducted: 12_000
          },
          {
            id: released.id,
            periodEnd: "2024-05-05",
            status: "Submitted",
            nilReturn: false,
            inactive: false,
            filedAt: at(90_500),
            deducted: 12_000
          }
        ])
        expect((yield* repo.filings(tenant.id, "2024-07-05", "2024-07-05")).map((f) => f.id)).toEqual([outside.id])
      })
  )

  it.effect("keeps the declarations a return was filed with, by whom and when", () =>
    Effect.gen(function* () {
      const repo = yield* MonthlyReturnRepo
      const tenant = yield* storedTenant
      const base = yield* newReturn(tenant, "2024-09-05", 0)
      const declarations = new ReturnDeclarations({
        employmentStatus: true,
        subcontractorsVerified: true,
        informationCorrect: true,
        declaredBy: "0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5e",
        declaredAt: at(3)
      })
      const r = new MonthlyReturn({ ...base, declarations })
      yield* repo.insert(r)
      expect(Option.map(yield* repo.find(tenant.id, r.id), (x) => x.declarations)).toEqual(Option.some(declarations))
    })
  )

  it.effect(
    "answers which of the contacts asked about are on the tenant's Accepted returns for the months from a given one: not Submitted, Rejected, earlier, nor another tenant's",
    () =>
      Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const tenant = yield* storedTenant
        const other = yield* storedTenant
        const contact = (n: number) => ContactId.make(`00000000-0000-4000-8000-0000000001${String(n).padStart(2, "0")}`)
        const withContacts = (owner: Tenant, periodEnd: string, minutes: number, contacts: ReadonlyArray<ContactId>) =>
          Effect.flatMap(newReturn(owner, periodEnd, minutes), (base) => {
            const r = new MonthlyReturn({
              ...base,
              lines: contacts.map((contactId, i) => new ReturnLine({ ...line(`C${i}`), contactId }))
            })
            return Effect.as(repo.insert(r), r)
          })
        const onTheFirst = yield* withContacts(tenant, "2024-05-05", 1, [contact(1), contact(2)])
        const later = yield* withContacts(tenant, "2024-08-05", 2, [contact(2)])
        const earlier = yield* withContacts(tenant, "2024-04-05", 3, [contact(3)])
        const rejected = yield* withContacts(tenant, "2024-06-05", 4, [contact(4)])
        yield* withContacts(tenant, "2024-07-05", 5, [contact(5)])
        const others = yield* withContacts(other, "2024-05-05", 6, [contact(6)])
        const toAccept = [onTheFirst.id, later.id, earlier.id, others.id]
        for (const claimed of yield* claimAll(at(100_000), at(100_001))) {
          if (toAccept.includes(claimed.monthlyReturn.id)) yield* repo.record(claimed, accepted(at(100_000)))
          else if (claimed.monthlyReturn.id === rejected.id)
            yield* repo.record(claimed, { _tag: "Rejected", reason: "UTR not known" })
        }
        const asked = [1, 2, 3, 4, 5, 6, 7].map(contact)
        expect([...(yield* repo.onAcceptedReturnsSince(tenant.id, "2024-05-05", asked))].sort()).toEqual([
          contact(1),
          contact(2)
        ])
        expect([...(yield* repo.onAcceptedReturnsSince(tenant.id, "2024-05-05", [contact(2), contact(3)]))]).toEqual([
          contact(2)
        ])
        expect([...(yield* repo.onAcceptedReturnsSince(tenant.id, "2024-06-05", asked))]).toEqual([contact(2)])
        expect([...(yield* repo.onAcceptedReturnsSince(other.id, "2024-01-05", asked))]).toEqual([contact(6)])
        expect([...(yield* repo.onAcceptedReturnsSince(tenant.id, "2024-01-05", []))]).toEqual([])
      })
  )
}
