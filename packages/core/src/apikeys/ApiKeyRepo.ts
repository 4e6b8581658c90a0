import { Context, type Effect, type Option } from "effect"
import type { ApiKey } from "./ApiKey.js"
import type { ApiKeyId, UserId } from "../Ids.js"
import type { User } from "../users/User.js"

export class ApiKeyRepo extends Context.Tag("core/ApiKeyRepo")<
  ApiKeyRepo,
  {
    readonly insert: (key: ApiKey, hash: string) => Effect.Effect<void>
    /** Keys of the user that are not revoked, newest first. */
    readonly listByUser: (userId: UserId) => Effect.Effect<ReadonlyArray<ApiKey>>
    /**
     * Revokes the user's key, and tells every server process (RevocationNotices) when the
     * revocation commits; false when the user has no such live key.
     */
    readonly revoke: (userId: UserId, id: ApiKeyId, at: Date) => Effect.Effect<boolean>
    /** The live key with this hash, and its owner. */
    readonly findByHash: (hash: string) => Effect.Effect<Option.Option<{ readonly key: ApiKey; readonly user: User }>>
    readonly touch: (id: ApiKeyId, at: Date) => Effect.Effect<void>
  }
>() {}
