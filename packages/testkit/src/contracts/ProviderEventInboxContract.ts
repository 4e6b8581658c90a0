import type { ProviderEvent } from "@cisbook/core/billing/providerevents/ProviderEvent"
import { ProviderEventInbox } from "@cisbook/core/billing/providerevents/ProviderEventInbox"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { at, type ContractIt, fresh } from "./Fixtures.js"

const FAR = new Date("2999-01-01T00:00:00Z")

/** The inbox is shared by every test: a claim test first leases whatever is due, so it sees only its own. */
const leaseEverythingDue = Effect.flatMap(ProviderEventInbox, (inbox) =>
  inbox.claimDue(FAR, new Date("3000-01-01T00:00:00Z"), 1_000_000)
)

const anEvent = (createdAt: Date, action = "failed") =>
  Effect.map(fresh, ({ token }): ProviderEvent => ({
    id: `EV${token}`,
    createdAt,
    resourceType: "payments",
    action,
    resourceId: `PM${token}`,
    links: { payment: `PM${token}`, mandate: "MD1" },
    details: { origin: "bank", nested: { list: [1, "two", null] } },
    metadata: { key: "value" }
  }))

export const providerEventInboxContract = (it: ContractIt) => {
  it.effect("stores each event id once however often it is added, and keeps what it was sent", () =>
    Effect.gen(function* () {
      const inbox = yield* ProviderEventInbox
      const first = yield* anEvent(at(0))
      const second = yield* anEvent(at(1))
      expect(yield* inbox.add({ notificationId: "WB1", events: [first, second, first] }, at(2))).toBe(2)
      expect(yield* inbox.add({ notificationId: "WB2", events: [{ ...first, action: "changed" }] }, at(3))).toBe(0)
      const listed = (yield* inbox.list(500)).filter((e) => e.id === first.id || e.id === second.id)
      expect(listed).toEqual([
        {
          id: second.id,
          resourceType: "payments",
          action: "failed",
          resourceId: second.resourceId,
          receivedAt: at(2),
          handled: "pending"
        },
        {
          id: first.id,
          resourceType: "payments",
          action: "failed",
          resourceId: first.resourceId,
          receivedAt: at(2),
          handled: "pending"
        }
      ])
    })
  )

  it.effect("leases due events oldest first, each to one claimant, and settles them only under the lease", () =>
    Effect.gen(function* () {
      const inbox = yield* ProviderEventInbox
      yield* leaseEverythingDue
      const late = yield* anEvent(at(5))
      const early = yield* anEvent(at(1))
      yield* inbox.add({ notificationId: null, events: [late, early] }, at(10))
      expect(yield* inbox.claimDue(at(9), at(20), 10)).toEqual([])
      const claimed = yield* inbox.claimDue(at(10), at(20), 10)
      expect(claimed.map((c) => c.event)).toEqual([early, late])
      expect(claimed.map((c) => c.attempts)).toEqual([0, 0])
      expect(yield* inbox.claimDue(at(11), at(30), 10)).toEqual([])
      // Once the lease ran out another claimant takes it; the first can no longer settle it.
      const again = yield* inbox.claimDue(at(21), at(40), 1)
      expect(again.map((c) => c.event.id)).toEqual([early.id])
      expect(yield* inbox.settle(early.id, claimed[0]!.leaseToken, "applied", at(22))).toBe(false)
      expect(yield* inbox.settle(early.id, again[0]!.leaseToken, "applied", at(22))).toBe(true)
      expect(yield* inbox.settle(early.id, again[0]!.leaseToken, "ignored", at(23))).toBe(false)
      expect((yield* inbox.list(500)).find((e) => e.id === early.id)?.handled).toBe("applied")
      // Settled: never due again.
      expect((yield* inbox.claimDue(at(100), at(200), 10)).map((c) => c.event.id)).toEqual([late.id])
    })
  )

  it.effect("a postponed event is due again at its time, with the attempt counted", () =>
    Effect.gen(function* () {
      const inbox = yield* ProviderEventInbox
      yield* leaseEverythingDue
      const event = yield* anEvent(at(0))
      yield* inbox.add({ notificationId: null, events: [event] }, at(0))
      const [claimed] = yield* inbox.claimDue(at(0), at(10), 10)
      yield* inbox.postpone([{ id: event.id, leaseToken: claimed!.leaseToken, retryAt: at(5) }])
      expect(yield* inbox.claimDue(at(4), at(10), 10)).toEqual([])
      const [retried] = yield* inbox.claimDue(at(5), at(10), 10)
      expect(retried).toMatchObject({ event, attempts: 1 })
    })
  )
}
