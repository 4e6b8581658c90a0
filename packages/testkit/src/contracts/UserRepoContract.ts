import { UserRepo } from "@cisbook/core/users/UserRepo"
import { User } from "@cisbook/core/users/User"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type ContractIt, fresh, newUser } from "./Fixtures.js"

export const userRepoContract = (it: ContractIt) => {
  it.effect("finds an inserted user by id, email and subject", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const user = yield* newUser({ subject: true })
      yield* repo.insert(user)
      expect(yield* repo.findById(user.id)).toEqual(Option.some(user))
      expect(yield* repo.findByEmail(user.email)).toEqual(Option.some(user))
      expect(yield* repo.findBySubject(user.subject ?? "")).toEqual(Option.some(user))
    })
  )

  it.effect("keeps a user without a subject, and finds nobody by an unknown id, email or subject", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const user = yield* newUser()
      yield* repo.insert(user)
      expect(yield* repo.findById(user.id)).toEqual(Option.some(user))
      const unknown = yield* newUser({ subject: true })
      expect(yield* repo.findById(unknown.id)).toEqual(Option.none())
      expect(yield* repo.findByEmail(unknown.email)).toEqual(Option.none())
      expect(yield* repo.findBySubject(unknown.subject ?? "")).toEqual(Option.none())
    })
  )

  it.effect("refuses a second user with the same email (DuplicateKey email)", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const first = yield* newUser()
      yield* repo.insert(first)
      const second = new User({ ...(yield* newUser()), email: first.email })
      expect(yield* Effect.flip(repo.insert(second))).toMatchObject({ _tag: "DuplicateKey", key: "email" })
      expect(yield* repo.findById(second.id)).toEqual(Option.none())
      expect(yield* repo.findByEmail(first.email)).toEqual(Option.some(first))
    })
  )

  it.effect("keeps any number of users without an email address", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const first = new User({ ...(yield* newUser({ subject: true })), email: null })
      const second = new User({ ...(yield* newUser({ subject: true })), email: null })
      yield* repo.insert(first)
      yield* repo.insert(second)
      expect(yield* repo.findBySubject(first.subject ?? "")).toEqual(Option.some(first))
      expect(yield* repo.findById(second.id)).toEqual(Option.some(second))
    })
  )

  it.effect("refuses a second user with the same subject (DuplicateKey subject)", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const first = yield* newUser({ subject: true })
      yield* repo.insert(first)
      const second = new User({ ...(yield* newUser()), subject: first.subject })
      expect(yield* Effect.flip(repo.insert(second))).toMatchObject({ _tag: "DuplicateKey", key: "subject" })
      expect(yield* repo.findById(second.id)).toEqual(Option.none())
    })
  )

  it.effect("links a subject to a user who has none, with the name that came with it", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const user = yield* newUser()
      yield* repo.insert(user)
      const { token } = yield* fresh
      expect(yield* repo.linkSubject(user.id, `subject|${token}`, "Ada Lovelace")).toBe(true)
      const linked = new User({ ...user, subject: `subject|${token}`, name: "Ada Lovelace" })
      expect(yield* repo.findBySubject(`subject|${token}`)).toEqual(Option.some(linked))
      expect(yield* repo.findById(user.id)).toEqual(Option.some(linked))
    })
  )

  it.effect("does not link a subject (even a taken one) to a user who already has one, nor to an unknown user", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const user = yield* newUser({ subject: true })
      yield* repo.insert(user)
      const { token } = yield* fresh
      expect(yield* repo.linkSubject(user.id, `subject|${token}`, "Someone Else")).toBe(false)
      expect(yield* repo.findById(user.id)).toEqual(Option.some(user))
      expect(yield* repo.findBySubject(`subject|${token}`)).toEqual(Option.none())
      const unknown = yield* newUser()
      expect(yield* repo.linkSubject(unknown.id, `subject|${token}`, "Nobody")).toBe(false)
      const holder = yield* newUser({ subject: true })
      yield* repo.insert(holder)
      expect(yield* repo.linkSubject(user.id, holder.subject ?? "", "Someone Else")).toBe(false)
    })
  )

  it.effect("refuses to link a subject that another user has (DuplicateKey subject)", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepo
      const holder = yield* newUser({ subject: true })
      const user = yield* newUser()
      yield* repo.insert(holder)
      yield* repo.insert(user)
      expect(yield* Effect.flip(repo.linkSubject(user.id, holder.subject ?? "", "Ada"))).toMatchObject({
        _tag: "DuplicateKey",
        key: "subject"
      })
      expect(yield* repo.findById(user.id)).toEqual(Option.some(user))
    })
  )
}
