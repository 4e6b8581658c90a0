import { BillingAddress } from "@cisbook/core/billing/mandates/BillingAddress"
import { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import { flowExpiry } from "@cisbook/core/billing/mandates/MandateFlow"
import { Email } from "@cisbook/core/Email"
import { MandateId } from "@cisbook/core/Ids"
import { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, fresh, newUser } from "./Fixtures.js"

const storedUser = Effect.gen(function* () {
  const user = yield* newUser()
  yield* Effect.flatMap(UserRepo, (users) => users.insert(user))
  return user
})

const address = new BillingAddress({
  companyName: "Lovelace Builders Ltd",
  billingEmail: Email.make("accounts@lovelace.example"),
  addressLine1: "1 Analytical Row",
  addressLine2: null,
  addressLine3: "London",
  postcode: "NW1 6XE",
  country: "GB"
})

const flowOf = (user: { readonly id: Mandate["userId"] }, createdAt: Date) =>
  Effect.map(
    fresh,
    ({ id, token }) =>
      new Mandate({
        id: MandateId.make(id),
        userId: user.id,
        status: "InProgress",
        sessionToken: `sess_${token}`,
        redirectFlowId: `BRQ${token.slice(-12)}`,
        redirectUrl: `https://pay.example/flow/BRF${token.slice(-12)}`,
        reference: null,
        accountHolderName: null,
        bankName: null,
        accountNumberEnding: null,
        nextPossibleChargeDate: null,
        createdAt,
        expiresAt: flowExpiry(createdAt),
        completedAt: null
      })
  )

export const billingProfileRepoContract = (it: ContractIt) => {
  it.effect("has no address until one is put, then the last one put, per user", () =>
    Effect.gen(function* () {
      const repo = yield* BillingProfileRepo
      const [ann, bob] = [yield* storedUser, yield* storedUser]
      expect(yield* repo.get(ann.id)).toEqual(Option.none())
      yield* repo.put(ann.id, address, at(0))
      const moved = new BillingAddress({ ...address, addressLine3: null, postcode: "75001", country: "FR" })
      yield* repo.put(ann.id, moved, at(1))
      expect(yield* repo.get(ann.id)).toEqual(Option.some(moved))
      expect(yield* repo.get(bob.id)).toEqual(Option.none())
    })
  )

  it.effect("reads the addresses of several users at once: theirs only, none for one without", () =>
    Effect.gen(function* () {
      const repo = yield* BillingProfileRepo
      const [ann, bob, cid] = [yield* storedUser, yield* storedUser, yield* storedUser]
      const bobs = new BillingAddress({ ...address, companyName: "Babbage Engines" })
      yield* repo.put(ann.id, address, at(0))
      yield* repo.put(bob.id, bobs, at(0))
      yield* repo.put(cid.id, address, at(0))
      const read = yield* repo.getOf([ann.id, bob.id, (yield* storedUser).id])
      expect(read.size).toBe(2)
      expect(read.get(ann.id)).toEqual(address)
      expect(read.get(bob.id)).toEqual(bobs)
      expect((yield* repo.getOf([])).size).toBe(0)
    })
  )
}

export const mandateRepoContract = (it: ContractIt) => {
  it.effect("reads the live mandates of several users at once: theirs only, none for one whose setup is not live", () =>
    Effect.gen(function* () {
      const repo = yield* MandateRepo
      const [ann, bob, cid] = [yield* storedUser, yield* storedUser, yield* storedUser]
      const anns = yield* flowOf(ann, at(0))
      const bobs = yield* flowOf(bob, at(0))
      const cids = yield* flowOf(cid, at(0))
      const others = yield* flowOf(yield* storedUser, at(0))
      for (const m of [anns, bobs, cids, others]) yield* repo.reserve(m, at(1))
      expect(yield* repo.moveStatus(bobs, "InProgress", "Expired")).toBe(true)
      const read = yield* repo.liveOf([ann.id, bob.id, cid.id])
      expect(read.size).toBe(2)
      expect(read.get(ann.id)).toEqual(anns)
      expect(read.get(cid.id)).toEqual(cids)
      expect((yield* repo.liveOf([])).size).toBe(0)
    })
  )

  it.effect("keeps one live mandate per user: a second reservation fails with DuplicateKey live", () =>
    Effect.gen(function* () {
      const repo = yield* MandateRepo
      const user = yield* storedUser
      const first = yield* flowOf(user, at(0))
      yield* repo.reserve(first, at(1))
      const second = yield* flowOf(user, at(1))
      expect(yield* Effect.flip(repo.reserve(second, at(2)))).toMatchObject({ _tag: "DuplicateKey", key: "live" })
      expect(yield* repo.latest(user.id)).toEqual(Option.some(first))
      expect(yield* repo.live(user.id)).toEqual(Option.some(first))
      // Another user is not affected.
      const other = yield* storedUser
      yield* repo.reserve(yield* flowOf(other, at(0)), at(1))
    })
  )

  it.effect("marks the user's expired flows Expired when reserving, so a new setup can start, and names them", () =>
    Effect.gen(function* () {
      const repo = yield* MandateRepo
      const user = yield* storedUser
      const first = yield* flowOf(user, at(0))
      expect(yield* repo.reserve(first, at(0))).toEqual([])
      // Still open a minute before its flow expires (7 days), expired at the minute it does.
      const week = 7 * 24 * 60
      const early = yield* flowOf(user, at(week - 1))
      expect(yield* Effect.flip(repo.reserve(early, at(week - 1)))).toMatchObject({ key: "live" })
      const second = yield* flowOf(user, at(week))
      expect(yield* repo.reserve(second, at(week))).toEqual([first.redirectFlowId])
      expect(Option.map(yield* repo.findByRedirectFlow(user.id, first.redirectFlowId ?? ""), (m) => m.status)).toEqual(
        Option.some("Expired")
      )
      expect(yield* repo.latest(user.id)).toEqual(Option.some(second))
    })
  )

  it.effect("completes a setup once: a second completion is told it lost; found by the setup's id alone", () =>
    Effect.gen(function* () {
      const repo = yield* MandateRepo
      const user = yield* storedUser
      const flow = yield* flowOf(user, at(0))
      yield* repo.reserve(flow, at(0))
      expect(yield* repo.findBySetup(flow.redirectFlowId ?? "")).toEqual(Option.some(flow))
      expect(yield* repo.findBySetup("BRQ_NOBODY")).toEqual(Option.none())
      const completed = new Mandate({
        ...flow,
        reference: "MD0000000007",
        accountHolderName: "Ada",
        completedAt: at(1)
      })
      const racing = new Mandate({ ...completed, reference: "MD0000000008" })
      const outcomes = yield* Effect.all([repo.completeSetup(completed), repo.completeSetup(racing)], {
        concurrency: "unbounded"
      })
      expect([...outcomes].sort()).toEqual([false, true])
      const stored = Option.getOrThrow(yield* repo.findBySetup(flow.redirectFlowId ?? ""))
      expect(stored).toEqual(outcomes[0] ? completed : racing)
      expect(yield* repo.completeSetup(new Mandate({ ...completed, reference: "MD0000000009" }))).toBe(false)
    })
  )

  it.effect("finds a mandate by the provider's reference, and moves its status only from the status given", () =>
    Effect.gen(function* () {
      const repo = yield* MandateRepo
      const user = yield* storedUser
      const flow = yield* flowOf(user, at(0))
      const completed = new Mandate({ ...flow, reference: `MD${flow.sessionToken.slice(-10)}`, completedAt: at(1) })
      yield* repo.reserve(completed, at(1))
      expect(yield* repo.findByReference(completed.reference!)).toEqual(Option.some(completed))
      expect(yield* repo.findByReference("MD_NOBODY")).toEqual(Option.none())
      expect(yield* repo.moveStatus(completed, "Active", "Cancelled")).toBe(false)
      expect(yield* repo.moveStatus(completed, "InProgress", "Active")).toBe(true)
      expect(Option.map(yield* repo.latest(user.id), (m) => m.status)).toEqual(Option.some("Active"))
      expect(yield* repo.moveStatus(completed, "InProgress", "Failed")).toBe(false)
      // Moving an ended mandate back to live while another is live is refused as the update is.
      expect(yield* repo.moveStatus(completed, "Active", "Cancelled")).toBe(true)
      yield* repo.reserve(yield* flowOf(user, at(2)), at(2))
      expect(yield* Effect.flip(repo.moveStatus(completed, "Cancelled", "Active"))).toMatchObject({
        _tag: "DuplicateKey",
        key: "live"
      })
    })
  )

  it.effect("replaces a mandate only while it is as read; refuses a second live one; removes a reservation", () =>
    Effect.gen(function* () {
      const repo = yield* MandateRepo
      const user = yield* storedUser
      const reserved = yield* flowOf(user, at(0))
      yield* repo.reserve(new Mandate({ ...reserved, redirectFlowId: null, redirectUrl: null }), at(0))
      const flow = new Mandate({ ...reserved, expiresAt: at(60) })
      // The provider's setup and its own expiry are stored with it.
      expect(yield* repo.replace(new Mandate({ ...reserved, redirectFlowId: null, redirectUrl: null }), flow)).toBe(
        true
      )
      expect(yield* repo.findByRedirectFlow(user.id, flow.redirectFlowId ?? "")).toEqual(Option.some(flow))
      const completed = new Mandate({
        ...flow,
        status: "Active",
        reference: "MD0000000001",
        accountHolderName: "Ada Lovelace",
        bankName: "BARCLAYS BANK PLC",
        accountNumberEnding: "11",
        nextPossibleChargeDate: "2026-01-08",
        completedAt: at(5)
      })
      expect(yield* repo.replace(flow, completed)).toBe(true)
      expect(yield* repo.findByRedirectFlow(user.id, flow.redirectFlowId ?? "")).toEqual(Option.some(completed))
      // The provider replaced the mandate meanwhile: a write of what was read before changes nothing.
      const replaced = new Mandate({ ...completed, reference: "MD0000000002" })
      expect(yield* repo.replace(completed, replaced)).toBe(true)
      expect(yield* repo.replace(completed, new Mandate({ ...completed, status: "Cancelled" }))).toBe(false)
      expect(yield* repo.replace(flow, new Mandate({ ...completed, reference: "MD0000000003" }))).toBe(false)
      expect(yield* repo.latest(user.id)).toEqual(Option.some(replaced))
      // Moved meanwhile (another status) is changed too.
      expect(yield* repo.moveStatus(replaced, "Active", "Cancelled")).toBe(true)
      expect(yield* repo.replace(replaced, new Mandate({ ...replaced, bankName: "HSBC UK" }))).toBe(false)
      const cancelled = new Mandate({ ...replaced, status: "Cancelled" })
      const next = yield* flowOf(user, at(10))
      yield* repo.reserve(next, at(10))
      expect(
        yield* Effect.flip(repo.replace(cancelled, new Mandate({ ...cancelled, status: "Active" })))
      ).toMatchObject({ _tag: "DuplicateKey", key: "live" })
      yield* repo.remove(user.id, next.id)
      expect(yield* repo.live(user.id)).toEqual(Option.none())
      expect(yield* repo.latest(user.id)).toEqual(Option.some(cancelled))
      // Flows are found only under their own user.
      const stranger = yield* storedUser
      expect(yield* repo.findByRedirectFlow(stranger.id, flow.redirectFlowId ?? "")).toEqual(Option.none())
    })
  )
}
