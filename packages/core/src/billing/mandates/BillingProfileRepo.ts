import { Context, type Effect, type Option } from "effect"
import type { BillingAddress } from "./BillingAddress.js"
import type { UserId } from "../../Ids.js"

/** A user's billing address: none until first set, then replaced whole. */
export class BillingProfileRepo extends Context.Tag("core/BillingProfileRepo")<
  BillingProfileRepo,
  {
    readonly get: (userId: UserId) => Effect.Effect<Option.Option<BillingAddress>>
    /** The addresses of these users, by user (one without is absent): a batch's in one read. */
    readonly getOf: (userIds: ReadonlyArray<UserId>) => Effect.Effect<ReadonlyMap<UserId, BillingAddress>>
    readonly put: (userId: UserId, address: BillingAddress, at: Date) => Effect.Effect<void>
  }
>() {}
