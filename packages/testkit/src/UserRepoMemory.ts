import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import { User } from "@cisbook/core/users/User"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

export class UserStore extends Effect.Service<UserStore>()("testkit/UserStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref(new Map<string, User>()))
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
          const all = [...users.values()]
          if (user.email !== null && all.some((u) => u.email === user.email))
            return [Option.some("email"), users] as const
          if (user.subject !== null && all.some((u) => u.subject === user.subject))
            return [Option.some("subject"), users] as const
          return [Option.none(), new Map(users).set(user.id, user)] as const
        }).pipe(
          Effect.flatMap(
            Option.match({ onNone: () => Effect.void, onSome: (key) => Effect.fail(new DuplicateKey({ key })) })
          )
        ),
      findById: (id) => find((u) => u.id === id),
      findByEmail: (email) => find((u) => u.email === email),
      findBySubject: (subject) => find((u) => u.subject === subject),
      linkSubject: (id, subject, name) =>
        Ref.modify(store, (users): readonly [boolean | "taken", Map<string, User>] => {
          const user = users.get(id)
          if (!user || user.subject !== null) return [false, users]
          if ([...users.values()].some((u) => u.subject === subject)) return ["taken", users]
          return [true, new Map(users).set(id, new User({ ...user, subject, name }))]
        }).pipe(
          Effect.flatMap((r) => (r === "taken" ? Effect.fail(new DuplicateKey({ key: "subject" })) : Effect.succeed(r)))
        )
    })
  })
).pipe(Layer.provideMerge(UserStore.Default))
