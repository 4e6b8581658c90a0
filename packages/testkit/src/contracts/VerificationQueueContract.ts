import type { Contact } from "@cisbook/core/contacts/Contact"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { type QueuedVerification, VerificationQueue } from "@cisbook/core/verification/VerificationQueue"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { otherCisScheme, sampleCisScheme } from "../CisSchemeFixtures.js"
import { identity, inserted, subcontractorFields } from "./ContactRepoContract.js"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

const FAR = new Date("2999-01-01T00:00:00Z")

/**
 * Claims see every tenant's requests, and the store is shared by all the contracts: a claim
 * test first leases whatever is due (until far in the future), so it sees only its own.
 */
const leaseEverythingDue = Effect.flatMap(VerificationQueue, (queue) =>
  queue.claimDue(FAR, new Date("3000-01-01T00:00:00Z"), 1_000_000)
)

const subcontractor = (tenant: Tenant) =>
  Effect.flatMap(fresh, ({ token }) =>
    inserted(tenant, {
      code: `S${token.slice(-7).toUpperCase()}`,
      ...subcontractorFields(identity({ firstName: "Ann", lastName: "Ash", utr: "2234567890" }))
    })
  )

const request = (
  contact: Contact,
  requestedAt: Date,
  contractor: QueuedVerification["request"]["contractor"] = { utr: "1097172564", scheme: sampleCisScheme }
) =>
  ({
    tenantId: contact.tenantId,
    contactId: contact.id,
    contactCode: contact.code,
    request: { contractor, subcontractor: contact.cisDetails! },
    requestedAt
  }) satisfies QueuedVerification

export const verificationQueueContract = (it: ContractIt) => {
  it.effect(
    "keeps one waiting request per contact, with the contractor and the subcontractor as they were asked, within the tenant",
    () =>
      Effect.gen(function* () {
        const queue = yield* VerificationQueue
        const tenant = yield* storedTenant
        const contact = yield* subcontractor(tenant)
        yield* queue.queue(request(contact, at(0)))
        const again = request(contact, at(5), { utr: null, scheme: otherCisScheme })
        yield* queue.queue(again)
        const found = yield* queue.find(tenant.id, contact.id)
        assert(Option.isSome(found))
        expect(found.value).toEqual(again)
        const other = yield* storedTenant
        expect(yield* queue.find(other.id, contact.id)).toEqual(Option.none())
      })
  )

  it.effect("leases due requests, each to one claimer until the lease runs out, earliest first, counting tries", () =>
    Effect.gen(function* () {
      const queue = yield* VerificationQueue
      yield* leaseEverythingDue
      const tenant = yield* storedTenant
      const late = yield* subcontractor(tenant)
      const early = yield* subcontractor(tenant)
      const notYet = yield* subcontractor(tenant)
      yield* queue.queue(request(late, at(2)))
      yield* queue.queue(request(early, at(1)))
      yield* queue.queue(request(notYet, at(30)))
      const [a, b] = yield* Effect.all([queue.claimDue(at(10), at(20), 1), queue.claimDue(at(10), at(20), 1)], {
        concurrency: 2
      })
      const claimed = [...(a ?? []), ...(b ?? [])]
      expect(claimed.map((c) => c.contactId).sort()).toEqual([early.id, late.id].sort())
      expect(claimed.every((c) => c.attempts === 1)).toBe(true)
      expect(yield* queue.claimDue(at(19), at(40), 10)).toEqual([])
      const again = yield* queue.claimDue(at(20), at(40), 10)
      expect(again.map((c) => c.contactId)).toEqual([early.id, late.id])
      expect(again.map((c) => c.attempts)).toEqual([2, 2])
      expect(again[0]).toMatchObject({ contactCode: early.code, request: request(early, at(1)).request })
      expect((yield* queue.claimDue(at(40), at(50), 10)).map((c) => c.contactId)).toEqual([
        early.id,
        late.id,
        notYet.id
      ])
    })
  )

  it.effect(
    "a held request is due no more, however late; its tenant's held for credentials are released (under a corrected scheme); only under its lease",
    () =>
      Effect.gen(function* () {
        const queue = yield* VerificationQueue
        yield* leaseEverythingDue
        const tenant = yield* storedTenant
        const other = yield* storedTenant
        const mine = yield* subcontractor(tenant)
        const unknown = yield* subcontractor(tenant)
        const theirs = yield* subcontractor(other)
        yield* queue.queue(request(mine, at(0)))
        yield* queue.queue(request(unknown, at(0)))
        yield* queue.queue(request(theirs, at(0)))
        const leased = yield* queue.claimDue(at(1), at(2), 10)
        expect(leased.map((l) => l.contactId).sort()).toEqual([mine.id, unknown.id, theirs.id].sort())
        for (const l of leased)
          expect(
            yield* queue.hold(
              l,
              l.contactId === unknown.id ? "HMRC's answer is unknown" : "HMRC refused the credentials",
              l.contactId === unknown.id ? "UnknownAnswer" : "Credentials"
            )
          ).toBe(true)
        expect(yield* queue.hold(leased[0]!, "again", "Credentials")).toBe(false)
        expect(yield* queue.claimDue(FAR, new Date("3000-01-01T00:00:00Z"), 10)).toEqual([])
        const released = yield* queue.releaseHeld(tenant.id, at(5), otherCisScheme)
        expect(released.map((r) => [r.contactId, r.request.contractor.scheme])).toEqual([[mine.id, otherCisScheme]])
        expect(yield* queue.releaseHeld(tenant.id, at(5))).toEqual([])
        const due = yield* queue.claimDue(at(5), FAR, 10)
        expect(due.map((d) => [d.contactId, d.attempts, d.request.contractor.scheme])).toEqual([
          [mine.id, 1, otherCisScheme]
        ])
        // Queued again, a held request is a new one, due at once: how one held for an unknown answer is released.
        yield* queue.queue(request(theirs, at(7)))
        yield* queue.queue(request(unknown, at(7)))
        expect((yield* queue.claimDue(at(7), at(8), 10)).map((d) => d.contactId).sort()).toEqual(
          [theirs.id, unknown.id].sort()
        )
      })
  )

  it.effect(
    "records a sending under the lease; polled again at the endpoint HMRC last named; sent again, it forgets the sending",
    () =>
      Effect.gen(function* () {
        const queue = yield* VerificationQueue
        yield* leaseEverythingDue
        const tenant = yield* storedTenant
        const contact = yield* subcontractor(tenant)
        yield* queue.queue(request(contact, at(0)))
        const [first] = yield* queue.claimDue(at(0), at(1), 1)
        assert(first !== undefined)
        expect([first.sent, first.unknownAnswer]).toEqual([null, null])
        const acknowledgement = {
          correlationId: "C0FFEE",
          endpoint: "https://hmrc.example/poll",
          pollIntervalSeconds: 5
        }
        expect(yield* queue.recordSent(first, acknowledgement, at(-10), at(0))).toBe(true)
        yield* queue.awaitAnswer(first, at(5), "https://hmrc.example/poll/2", "RecordSeen")
        expect(yield* queue.claimDue(at(4), at(100), 10)).toEqual([])
        const [second] = yield* queue.claimDue(at(5), at(100), 10)
        assert(second !== undefined)
        expect([second.sent, second.unknownAnswer, second.attempts]).toEqual([
          {
            correlationId: "C0FFEE",
            endpoint: "https://hmrc.example/poll/2",
            credentialsSetAt: at(-10),
            pollIntervalSeconds: 5
          },
          "RecordSeen",
          1
        ])
        yield* queue.sendAgain(second, at(10), { failedAttempt: true })
        const [third] = yield* queue.claimDue(at(10), at(100), 10)
        assert(third !== undefined)
        expect([third.sent, third.unknownAnswer, third.attempts]).toEqual([null, "RecordSeen", 2])
        yield* queue.sendAgain(third, at(20), { failedAttempt: false, unknownAnswer: "Resubmitted" })
        const [fourth] = yield* queue.claimDue(at(20), at(100), 10)
        expect([fourth?.sent, fourth?.unknownAnswer, fourth?.attempts]).toEqual([null, "Resubmitted", 2])
      })
  )

  it.effect("completes or postpones a request only under its current lease", () =>
    Effect.gen(function* () {
      const queue = yield* VerificationQueue
      yield* leaseEverythingDue
      const tenant = yield* storedTenant
      const contact = yield* subcontractor(tenant)
      yield* queue.queue(request(contact, at(0)))
      const [stale] = yield* queue.claimDue(at(0), at(1), 1)
      const [current] = yield* queue.claimDue(at(1), at(2), 1)
      assert(stale !== undefined && current !== undefined)
      expect(yield* queue.complete(stale)).toBe(false)
      yield* queue.postpone(stale, at(100), "ignored")
      yield* queue.postpone(current, at(60), "The tax authority is down")
      expect(yield* queue.claimDue(at(59), at(200), 10)).toEqual([])
      const [retried] = yield* queue.claimDue(at(60), at(200), 10)
      assert(retried !== undefined)
      expect(retried.attempts).toBe(3)
      expect(yield* queue.complete(current)).toBe(false)
      expect(yield* queue.complete(retried)).toBe(true)
      expect(yield* queue.find(tenant.id, contact.id)).toEqual(Option.none())
    })
  )

  it.effect(
    "a request queued again while leased is a new one: the old lease can no longer settle it; its contact can still be deleted",
    () =>
      Effect.gen(function* () {
        const queue = yield* VerificationQueue
        yield* leaseEverythingDue
        const tenant = yield* storedTenant
        const contact = yield* subcontractor(tenant)
        yield* queue.queue(request(contact, at(0)))
        const [leased] = yield* queue.claimDue(at(0), at(10), 1)
        assert(leased !== undefined)
        yield* queue.queue(request(contact, at(1)))
        expect(yield* queue.complete(leased)).toBe(false)
        const [fresh] = yield* queue.claimDue(at(1), at(10), 1)
        expect(fresh).toMatchObject({ contactId: contact.id, attempts: 1, requestedAt: at(1) })
        yield* Effect.flatMap(ContactRepo, (repo) => repo.remove(tenant.id, contact.id))
      })
  )
}
