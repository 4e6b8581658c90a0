import { ApiKeyRepo } from "@cisbook/core/apikeys/ApiKeyRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { Transactor } from "@cisbook/core/system/Transactor"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import { User } from "@cisbook/core/users/User"
import { expect } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { type ContractIt, membership, newApiKey, newTenant, newUser } from "./Fixtures.js"

/** A user, a tenant they own and a key of theirs, written in one go; and whether all or none of it is there. */
const writes = Effect.gen(function* () {
  const users = yield* UserRepo
  const tenants = yield* TenantRepo
  const keys = yield* ApiKeyRepo
  const user = yield* newUser()
  const tenant = yield* newTenant()
  const { hash, key } = yield* newApiKey(user)
  const write = users
    .insert(user)
    .pipe(
      Effect.zipRight(tenants.insert(tenant, membership(tenant, user, "Owner"))),
      Effect.zipRight(keys.insert(key, hash))
    )
  const present = Effect.all([
    Effect.map(users.findById(user.id), Option.isSome),
    Effect.map(tenants.findByCode(tenant.code), Option.isSome),
    Effect.map(keys.findByHash(hash), Option.isSome)
  ])
  return { user, write, present } as const
})

export const transactorContract = (it: ContractIt) => {
  it.effect("keeps every write of a transaction that succeeds", () =>
    Effect.gen(function* () {
      const { transaction } = yield* Transactor
      const { present, write } = yield* writes
      yield* transaction(write)
      expect(yield* present).toEqual([true, true, true])
    })
  )

  it.effect("undoes every write of a transaction that fails", () =>
    Effect.gen(function* () {
      const { transaction } = yield* Transactor
      const { present, write } = yield* writes
      const error = yield* Effect.flip(transaction(Effect.zipRight(write, Effect.fail("refused" as const))))
      expect(error).toBe("refused")
      expect(yield* present).toEqual([false, false, false])
    })
  )

  it.effect("undoes every write of a transaction that dies", () =>
    Effect.gen(function* () {
      const { transaction } = yield* Transactor
      const { present, write } = yield* writes
      const exit = yield* Effect.exit(transaction(Effect.zipRight(write, Effect.die("broken"))))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* present).toEqual([false, false, false])
    })
  )

  it.effect("goes on after a DuplicateKey it recovers from, and keeps the writes around it", () =>
    Effect.gen(function* () {
      const { transaction } = yield* Transactor
      const users = yield* UserRepo
      const first = yield* writes
      const clash = new User({ ...(yield* newUser()), email: first.user.email })
      const after = yield* writes
      yield* transaction(
        first.write.pipe(
          Effect.zipRight(Effect.flip(users.insert(clash))),
          Effect.tap((error) => expect(error).toMatchObject({ _tag: "DuplicateKey", key: "email" })),
          Effect.zipRight(after.write)
        )
      )
      expect(yield* first.present).toEqual([true, true, true])
      expect(yield* after.present).toEqual([true, true, true])
      expect(yield* users.findById(clash.id)).toEqual(Option.none())
    })
  )

  it.effect("undoes only the inner writes when a nested transaction fails", () =>
    Effect.gen(function* () {
      const { transaction } = yield* Transactor
      const outer = yield* writes
      const inner = yield* writes
      yield* transaction(
        outer.write.pipe(
          Effect.zipRight(transaction(Effect.zipRight(inner.write, Effect.fail("inner refused" as const)))),
          Effect.catchAll(() => Effect.void)
        )
      )
      expect(yield* outer.present).toEqual([true, true, true])
      expect(yield* inner.present).toEqual([false, false, false])
    })
  )
}
