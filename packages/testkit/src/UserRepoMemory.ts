import { DuplicateKey } from "@cisbook/core/ports/DuplicateKey"
import { UserRepo } from "@cisbook/core/ports/UserRepo"
import { User } from "@cisbook/core/User"
import { Effect, Layer, Option, Ref } from "effect"

export class UserStore extends Effect.Service<UserStore>()("testkit/UserStore", {
  effect: Ref.make(new Map<string, User>())
}) {}

export const UserRepoMemory = Layer.effect(
  UserRepo,
  Effect.gen(function* () {
    const store = yield* UserStore
    const find = (p: (u: User) => boolean) =>
      Ref.get(store).pipe(Effect.map((users) => Option.fromNullable([...users.values()].find(p))))
    return UserRepo.of({
      insert: (user) =>
        Ref.modify(store, (users) => {
          const clash = [...users.values()].find(
            (u) => u.email === user.email || (user.subject !== null && u.subject === user.subject)
          )
          if (clash) return [Option.some(clash.email === user.email ? "email" : "subject"), users] as const
          return [Option.none(), new Map(users).set(user.id, user)] as const
        }).pipe(Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: (key) => Effect.fail(new DuplicateKey({ key })) }))),
      findById: (id) => find((u) => u.id === id),
      findByEmail: (email) => find((u) => u.email === email),
      findBySubject: (subject) => find((u) => u.subject === subject),
      linkSubject: (id, subject, name) =>
        Ref.modify(store, (users): readonly [boolean | "taken", Map<string, User>] => {
          if ([...users.values()].some((u) => u.subject === subject)) return ["taken", users]
          const user = users.get(id)
          if (!user || user.subject !== null) return [false, users]
          return [true, new Map(users).set(id, new User({ ...user, subject, name }))]
        }).pipe(Effect.flatMap((r) => (r === "taken" ? Effect.fail(new DuplicateKey({ key: "subject" })) : Effect.succeed(r))))
    })
  })
).pipe(Layer.provideMerge(UserStore.Default))
