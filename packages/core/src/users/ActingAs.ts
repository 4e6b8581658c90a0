import { Effect } from "effect"
import { CurrentUser } from "./CurrentUser.js"
import type { User } from "./User.js"

/** Runs a use case as `user`, named by the admin CLI or a test rather than by a request's credential. */
export const asUser =
  (user: User) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    Effect.provideService(useCase, CurrentUser, { user, apiKeyId: null })
