import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import { type Role, Tenant, TenantCode } from "@cisbook/core/tenants/Tenant"
import type { User } from "@cisbook/core/users/User"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, fresh, membership, newTenant, newUser } from "./Fixtures.js"

const insertedUser = (fields?: Parameters<typeof newUser>[0]) =>
  Effect.tap(newUser(fields), (user) => Effect.flatMap(UserRepo, (users) => users.insert(user)))

const ownedTenant = (owner: User, fields?: Parameters<typeof newTenant>[0]) =>
  Effect.tap(newTenant(fields), (tenant) =>
    Effect.flatMap(TenantRepo, (tenants) => tenants.insert(tenant, membership(tenant, owner, "Owner")))
  )

const member = (user: User, role: Role, addedAt: Date) => ({
  userId: user.id,
  email: user.email,
  name: user.name,
  role,
  addedAt
})

export const tenantRepoContract = (it: ContractIt) => {
  it.effect("finds an inserted tenant by code, with its owner as Owner", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const owner = yield* insertedUser()
      const tenant = yield* ownedTenant(owner, { email: true })
      expect(yield* repo.findByCode(tenant.code)).toEqual(Option.some(tenant))
      expect(yield* repo.findRole(tenant.id, owner.id)).toEqual(Option.some("Owner"))
      expect(yield* repo.listForUser(owner.id)).toEqual([{ tenant, role: "Owner" }])
      expect(yield* repo.listMembers(tenant.id)).toEqual([member(owner, "Owner", tenant.createdAt)])
    })
  )

  it.effect("keeps a tenant without an email, and finds no tenant by an unknown code", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const tenant = yield* ownedTenant(yield* insertedUser())
      expect(yield* repo.findByCode(tenant.code)).toEqual(Option.some(tenant))
      const { token } = yield* fresh
      expect(yield* repo.findByCode(TenantCode.make(`t${token}`))).toEqual(Option.none())
    })
  )

  it.effect("refuses a taken code (DuplicateKey code) and keeps nothing of the refused tenant", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const first = yield* ownedTenant(yield* insertedUser())
      const otherOwner = yield* insertedUser()
      const second = new Tenant({ ...(yield* newTenant()), code: first.code })
      const error = yield* Effect.flip(repo.insert(second, membership(second, otherOwner, "Owner")))
      expect(error).toMatchObject({ _tag: "DuplicateKey", key: "code" })
      expect(yield* repo.findByCode(first.code)).toEqual(Option.some(first))
      expect(yield* repo.findRole(second.id, otherOwner.id)).toEqual(Option.none())
      expect(yield* repo.listForUser(otherOwner.id)).toEqual([])
    })
  )

  it.effect("adds a member with a role, and refuses the same user twice (DuplicateKey membership)", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const tenant = yield* ownedTenant(yield* insertedUser())
      const user = yield* insertedUser()
      yield* repo.addMember(membership(tenant, user, "Member", at(1)))
      expect(yield* repo.findRole(tenant.id, user.id)).toEqual(Option.some("Member"))
      const error = yield* Effect.flip(repo.addMember(membership(tenant, user, "Owner", at(2))))
      expect(error).toMatchObject({ _tag: "DuplicateKey", key: "membership" })
      expect(yield* repo.findRole(tenant.id, user.id)).toEqual(Option.some("Member"))
    })
  )

  it.effect("knows no role for a user of another tenant", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const owner = yield* insertedUser()
      const mine = yield* ownedTenant(owner)
      const theirs = yield* ownedTenant(yield* insertedUser())
      expect(yield* repo.findRole(theirs.id, owner.id)).toEqual(Option.none())
      expect(yield* repo.findRole(mine.id, owner.id)).toEqual(Option.some("Owner"))
    })
  )

  it.effect("finds a tenant with the user's role in one read, without a role for a non-member", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const owner = yield* insertedUser()
      const stranger = yield* insertedUser()
      const tenant = yield* ownedTenant(owner)
      expect(yield* repo.findAccess(tenant.code, owner.id)).toEqual(Option.some({ tenant, role: Option.some("Owner") }))
      expect(yield* repo.findAccess(tenant.code, stranger.id)).toEqual(Option.some({ tenant, role: Option.none() }))
      const { token } = yield* fresh
      expect(yield* repo.findAccess(TenantCode.make(`t${token}`), owner.id)).toEqual(Option.none())
    })
  )

  it.effect("lists a user's tenants with the user's role, ordered by code point", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const user = yield* insertedUser()
      const other = yield* insertedUser()
      const { token } = yield* fresh
      // "-" sorts before digits and letters by code point; a locale collation may ignore it.
      const b = yield* ownedTenant(other, { code: `t${token}b` })
      const dashB = yield* ownedTenant(user, { code: `t${token}-b` })
      const a = yield* ownedTenant(other, { code: `t${token}a` })
      yield* ownedTenant(other, { code: `t${token}c` })
      yield* repo.addMember(membership(b, user, "Member", at(1)))
      yield* repo.addMember(membership(a, user, "Owner", at(2)))
      expect(yield* repo.listForUser(user.id)).toEqual([
        { tenant: dashB, role: "Owner" },
        { tenant: a, role: "Owner" },
        { tenant: b, role: "Member" }
      ])
    })
  )

  it.effect("lists a tenant's members by when they were added, then by email", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const owner = yield* insertedUser({ label: "z" })
      const tenant = yield* ownedTenant(owner)
      const late = yield* insertedUser({ label: "a" })
      const sameTimeB = yield* insertedUser({ label: "b" })
      const sameTimeA = yield* insertedUser({ label: "a" })
      yield* repo.addMember(membership(tenant, late, "Member", at(5)))
      yield* repo.addMember(membership(tenant, sameTimeB, "Owner", at(2)))
      yield* repo.addMember(membership(tenant, sameTimeA, "Member", at(2)))
      const elsewhere = yield* ownedTenant(yield* insertedUser())
      yield* repo.addMember(membership(elsewhere, late, "Member", at(1)))
      expect(yield* repo.listMembers(tenant.id)).toEqual([
        member(owner, "Owner", tenant.createdAt),
        member(sameTimeA, "Member", at(2)),
        member(sameTimeB, "Owner", at(2)),
        member(late, "Member", at(5))
      ])
    })
  )

  it.effect("lists every tenant by code with its owners' emails, members left out", () =>
    Effect.gen(function* () {
      const repo = yield* TenantRepo
      const first = yield* insertedUser({ label: "b" })
      const second = yield* insertedUser({ label: "a" })
      const worker = yield* insertedUser()
      const shared = yield* ownedTenant(first)
      yield* repo.addMember(membership(shared, second, "Owner", at(3)))
      yield* repo.addMember(membership(shared, worker, "Member", at(4)))
      const solo = yield* ownedTenant(worker)
      const ours = (yield* repo.listAll()).filter((s) => s.tenant.id === shared.id || s.tenant.id === solo.id)
      const expected = [
        { tenant: shared, owners: [first.email, second.email].sort() },
        { tenant: solo, owners: [worker.email] }
      ].sort((x, y) => (x.tenant.code < y.tenant.code ? -1 : 1))
      expect(ours).toEqual(expected)
    })
  )
}
