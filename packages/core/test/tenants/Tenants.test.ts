import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Email } from "../../src/Email.js"
import { Conflict, Forbidden, NotFound } from "../../src/Errors.js"
import { UserRepo } from "../../src/users/UserRepo.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { Users } from "../../src/users/Users.js"
import { asMember, asUser, aUser, claims, testApp } from "../TestApp.js"

const acme = { code: TenantCode.make("acme-builders"), name: "Acme Builders", email: null }
const noTenant = (code: string) => new NotFound({ detail: `There is no tenant with the code ${code}.` })
const notAMember = (code: string) =>
  new NotAMember({ tenantCode: TenantCode.make(code), detail: `You are not a member of the tenant ${code}.` })

describe("Tenants.create", () => {
  it.effect("makes the caller its Owner", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const owner = yield* aUser("owner@example.com", "Olive Owner")
      const created = yield* tenants.create({ ...acme, email: Email.make("office@acme.example") }).pipe(asUser(owner))
      expect(created.role).toBe("Owner")
      expect(created.tenant).toMatchObject({
        code: "acme-builders",
        name: "Acme Builders",
        email: "office@acme.example",
        createdAt: new Date("2026-11-21T09:00:00.000Z")
      })
      expect(yield* tenants.listMine().pipe(asUser(owner))).toEqual([created])
      expect(yield* tenants.access("acme-builders").pipe(asUser(owner))).toEqual(created)
      expect(yield* tenants.members().pipe(asMember(owner, "acme-builders"))).toEqual([
        {
          userId: owner.id,
          email: "owner@example.com",
          name: "Olive Owner",
          role: "Owner",
          addedAt: created.tenant.createdAt
        }
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a taken code with Conflict, and does not make the second caller a member", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const first = yield* aUser("first@example.com")
      const second = yield* aUser("second@example.com")
      const original = yield* tenants.create(acme).pipe(asUser(first))
      const error = yield* Effect.flip(tenants.create({ ...acme, name: "Another Acme" }).pipe(asUser(second)))
      expect(error).toEqual(new Conflict({ detail: "The tenant code acme-builders is taken; choose another." }))
      expect(yield* tenants.listMine().pipe(asUser(second))).toEqual([])
      expect(yield* tenants.access("acme-builders").pipe(asUser(first))).toEqual(original)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Tenants.access", () => {
  it.effect("is NotFound for an unknown code and for a code that cannot exist", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const user = yield* aUser("user@example.com")
      yield* tenants.create(acme).pipe(asUser(user))
      expect(yield* Effect.flip(tenants.access("no-such-tenant").pipe(asUser(user)))).toEqual(
        noTenant("no-such-tenant")
      )
      for (const malformed of ["ACME-BUILDERS", "ab", "1acme", "acme builders", "", "a".repeat(41)]) {
        expect(yield* Effect.flip(tenants.access(malformed).pipe(asUser(user)))).toEqual(noTenant(malformed))
      }
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a non-member with Forbidden by default, and with NotFound when asked to hide the tenant", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const owner = yield* aUser("owner@example.com")
      const stranger = yield* aUser("stranger@example.com")
      yield* tenants.create(acme).pipe(asUser(owner))
      // Each front end decides how much a non-member is told: 403, or 404 as for no such tenant.
      expect(yield* Effect.flip(tenants.access("acme-builders").pipe(asUser(stranger)))).toEqual(
        notAMember("acme-builders")
      )
      expect(yield* Effect.flip(tenants.members().pipe(asMember(stranger, "acme-builders")))).toEqual(
        notAMember("acme-builders")
      )
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Tenants.addMember", () => {
  it.effect("lets an Owner add an existing user, who can then act for the tenant", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const clock = yield* ManualClock
      const owner = yield* aUser("owner@example.com", "Olive")
      const bob = yield* aUser("bob@example.com", "Bob")
      const { tenant } = yield* tenants.create(acme).pipe(asUser(owner))
      yield* clock.advance(60_000)
      const added = yield* tenants
        .addMember({ email: bob.email, role: "Member" })
        .pipe(asMember(owner, "acme-builders"))
      const addedAt = new Date("2026-11-21T09:01:00.000Z")
      expect(added).toEqual({ userId: bob.id, email: "bob@example.com", name: "Bob", role: "Member", addedAt })
      expect(yield* tenants.access("acme-builders").pipe(asUser(bob))).toEqual({ tenant, role: "Member" })
      expect(yield* tenants.listMine().pipe(asUser(bob))).toEqual([{ tenant, role: "Member" }])
      expect((yield* tenants.members().pipe(asMember(bob, "acme-builders"))).map((m) => [m.email, m.role])).toEqual([
        ["owner@example.com", "Owner"],
        ["bob@example.com", "Member"]
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is for Owners only: a Member is Forbidden and a non-member too", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const owner = yield* aUser("owner@example.com")
      const member = yield* aUser("member@example.com")
      const stranger = yield* aUser("stranger@example.com")
      yield* tenants.create(acme).pipe(asUser(owner))
      yield* tenants.addMember({ email: member.email, role: "Member" }).pipe(asMember(owner, "acme-builders"))
      const byMember = yield* Effect.flip(
        tenants
          .addMember({ email: Email.make("friend@example.com"), role: "Owner" })
          .pipe(asMember(member, "acme-builders"))
      )
      expect(byMember).toEqual(new Forbidden({ detail: "Only an Owner of acme-builders can add members." }))
      const byStranger = yield* Effect.flip(
        tenants.addMember({ email: stranger.email, role: "Owner" }).pipe(asMember(stranger, "acme-builders"))
      )
      expect(byStranger).toEqual(notAMember("acme-builders"))
      // A refused request invites nobody.
      expect(yield* (yield* UserRepo).findByEmail(Email.make("friend@example.com"))).toEqual(Option.none())
      expect(yield* tenants.access("acme-builders").pipe(asUser(stranger)).pipe(Effect.flip)).toBeInstanceOf(NotAMember)
      expect(yield* tenants.members().pipe(asMember(owner, "acme-builders"))).toHaveLength(2)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses someone who is already a member with Conflict", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const owner = yield* aUser("owner@example.com")
      const bob = yield* aUser("bob@example.com")
      yield* tenants.create(acme).pipe(asUser(owner))
      yield* tenants.addMember({ email: bob.email, role: "Member" }).pipe(asMember(owner, "acme-builders"))
      const again = yield* Effect.flip(
        tenants.addMember({ email: bob.email, role: "Owner" }).pipe(asMember(owner, "acme-builders"))
      )
      expect(again).toEqual(new Conflict({ detail: "bob@example.com is already a member of acme-builders." }))
      const self = yield* Effect.flip(
        tenants.addMember({ email: owner.email, role: "Member" }).pipe(asMember(owner, "acme-builders"))
      )
      expect(self).toBeInstanceOf(Conflict)
      expect(yield* tenants.access("acme-builders").pipe(asUser(bob))).toMatchObject({ role: "Member" })
      expect(yield* tenants.access("acme-builders").pipe(asUser(owner))).toMatchObject({ role: "Owner" })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("invites an unknown address; the invitee is linked at first sign-in and sees the tenant", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const owner = yield* aUser("owner@example.com")
      const { tenant } = yield* tenants.create(acme).pipe(asUser(owner))
      const invited = yield* tenants
        .addMember({
          email: Email.make("new@example.com"),
          role: "Member"
        })
        .pipe(asMember(owner, "acme-builders"))
      expect(invited).toMatchObject({ email: "new@example.com", name: "new@example.com", role: "Member" })
      const stored = yield* (yield* UserRepo).findById(invited.userId)
      expect(Option.map(stored, (u) => u.subject)).toEqual(Option.some(null))

      const signedIn = yield* (yield* Users).fromClaims(
        claims("sub-new", { email: "New@Example.com", name: "Nina New" })
      )
      expect(signedIn).toMatchObject({ id: invited.userId, subject: "sub-new", name: "Nina New" })
      expect(yield* tenants.listMine().pipe(asUser(signedIn))).toEqual([{ tenant, role: "Member" }])
      expect(yield* tenants.access("acme-builders").pipe(asUser(signedIn))).toEqual({ tenant, role: "Member" })
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Tenants.listAll", () => {
  it.effect("lists every tenant by code with its owners, not its members", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const ann = yield* aUser("ann@example.com")
      const zed = yield* aUser("zed@example.com")
      const mo = yield* aUser("mo@example.com")
      yield* tenants.create({ ...acme, code: TenantCode.make("zeta") }).pipe(asUser(zed))
      yield* tenants.create(acme).pipe(asUser(zed))
      yield* tenants.addMember({ email: ann.email, role: "Owner" }).pipe(asMember(zed, "acme-builders"))
      yield* tenants.addMember({ email: mo.email, role: "Member" }).pipe(asMember(zed, "acme-builders"))
      const all = yield* tenants.listAll()
      expect(all.map(({ owners, tenant }) => [tenant.code, owners])).toEqual([
        ["acme-builders", ["ann@example.com", "zed@example.com"]],
        ["zeta", ["zed@example.com"]]
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is empty before any tenant exists", () =>
    Effect.gen(function* () {
      expect(yield* (yield* Tenants).listAll()).toEqual([])
    }).pipe(Effect.provide(testApp()))
  )
})
