import { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { ApiKeyRepo } from "@cisbook/core/apikeys/ApiKeyRepo"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import type { User } from "@cisbook/core/users/User"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, newApiKey, newUser } from "./Fixtures.js"

const insertedUser = Effect.tap(newUser({ subject: true }), (user) =>
  Effect.flatMap(UserRepo, (users) => users.insert(user))
)

const insertedKey = (user: User, createdAt: Date = at(0)) =>
  Effect.tap(newApiKey(user, { createdAt }), ({ hash, key }) =>
    Effect.flatMap(ApiKeyRepo, (keys) => keys.insert(key, hash))
  )

export const apiKeyRepoContract = (it: ContractIt) => {
  it.effect("lists a user's keys newest first, then by id descending, without other users' keys", () =>
    Effect.gen(function* () {
      const repo = yield* ApiKeyRepo
      const user = yield* insertedUser
      const oldest = yield* insertedKey(user, at(1))
      const newestA = yield* insertedKey(user, at(3))
      const middle = yield* insertedKey(user, at(2))
      const newestB = yield* insertedKey(user, at(3))
      yield* insertedKey(yield* insertedUser, at(4))
      const newest = [newestA.key, newestB.key].sort((x, y) => (x.id < y.id ? 1 : -1))
      expect(yield* repo.listByUser(user.id)).toEqual([...newest, middle.key, oldest.key])
    })
  )

  it.effect("finds a live key by its hash, with its owner", () =>
    Effect.gen(function* () {
      const repo = yield* ApiKeyRepo
      const user = yield* insertedUser
      const { hash, key } = yield* insertedKey(user)
      expect(yield* repo.findByHash(hash)).toEqual(Option.some({ key, user }))
      expect(yield* repo.findByHash(`${hash}0`)).toEqual(Option.none())
    })
  )

  it.effect("revokes a key for its owner only; a revoked key is neither listed nor found", () =>
    Effect.gen(function* () {
      const repo = yield* ApiKeyRepo
      const user = yield* insertedUser
      const stranger = yield* insertedUser
      const { hash, key } = yield* insertedKey(user)
      const kept = yield* insertedKey(user)
      expect(yield* repo.revoke(stranger.id, key.id, at(5))).toBe(false)
      expect(yield* repo.findByHash(hash)).toEqual(Option.some({ key, user }))
      expect(yield* repo.revoke(user.id, key.id, at(5))).toBe(true)
      expect(yield* repo.listByUser(user.id)).toEqual([kept.key])
      expect(yield* repo.findByHash(hash)).toEqual(Option.none())
      expect(yield* repo.revoke(user.id, key.id, at(6))).toBe(false)
      const never = yield* newApiKey(user)
      expect(yield* repo.revoke(user.id, never.key.id, at(6))).toBe(false)
    })
  )

  it.effect("records when a key was last used", () =>
    Effect.gen(function* () {
      const repo = yield* ApiKeyRepo
      const user = yield* insertedUser
      const { hash, key } = yield* insertedKey(user)
      yield* repo.touch(key.id, at(10))
      const touched = new ApiKey({ ...key, lastUsedAt: at(10) })
      expect(yield* repo.findByHash(hash)).toEqual(Option.some({ key: touched, user }))
      expect(yield* repo.listByUser(user.id)).toEqual([touched])
    })
  )
}
