import { Context, type Effect, type Option } from "effect"
import type { Email } from "../Email.js"
import type { UserId } from "../Ids.js"
import type { User } from "./User.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

export class UserRepo extends Context.Tag("core/UserRepo")<
  UserRepo,
  {
    /** Fails with DuplicateKey "email" or "subject". */
    readonly insert: (user: User) => Effect.Effect<void, DuplicateKey>
    readonly findById: (id: UserId) => Effect.Effect<Option.Option<User>>
    readonly findByEmail: (email: Email) => Effect.Effect<Option.Option<User>>
    readonly findBySubject: (subject: string) => Effect.Effect<Option.Option<User>>
    /** Links an identity-provider subject to a user that has none yet; false if it already had one. */
    readonly linkSubject: (id: UserId, subject: string, name: string) => Effect.Effect<boolean, DuplicateKey>
  }
>() {}
