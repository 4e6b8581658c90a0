import { Context, type Effect, type Option } from "effect"
import type { Mandate } from "./Mandate.js"
import type { StoredMandateStatus } from "./MandateStatus.js"
import type { MandateId, UserId } from "../../Ids.js"
import type { DuplicateKey } from "../../system/DuplicateKey.js"

/**
 * The users' mandate setups. A user holds at most one live (InProgress or Active) mandate; the
 * store enforces it, so racing setups cannot both win.
 */
export class MandateRepo extends Context.Tag("core/MandateRepo")<
  MandateRepo,
  {
    /**
     * Marks the user's setups that expired by `now` Expired, then stores the new setup; fails with
     * DuplicateKey "live" when the user still holds a live mandate. Atomic. Answers the provider's
     * ids of the setups it marked Expired (to cancel them with the provider).
     */
    readonly reserve: (mandate: Mandate, now: Date) => Effect.Effect<ReadonlyArray<string>, DuplicateKey>
    /**
     * Stores `next` in place of `read` only while the stored mandate is still as `read` was (the
     * same provider mandate and status): false when something else changed it meanwhile (an
     * event that replaced or moved it), so that a write never brings back what it read before.
     * DuplicateKey "live" when it would make a second live one.
     */
    readonly replace: (read: Mandate, next: Mandate) => Effect.Effect<boolean, DuplicateKey>
    /**
     * Stores a completed setup (its `reference` set) only if it was not completed meanwhile; false
     * when another completion (a concurrent request, the provider's event) stored it first.
     * DuplicateKey "live" when it would make a second live one.
     */
    readonly completeSetup: (mandate: Mandate) => Effect.Effect<boolean, DuplicateKey>
    /** Forgets a reservation the provider never took up. */
    readonly remove: (userId: UserId, id: MandateId) => Effect.Effect<void>
    /** The user's latest setup, whatever its status. */
    readonly latest: (userId: UserId) => Effect.Effect<Option.Option<Mandate>>
    /** The user's live (InProgress or Active) mandate. */
    readonly live: (userId: UserId) => Effect.Effect<Option.Option<Mandate>>
    /** The live mandates of these users, by user (one without is absent): a batch's in one read. */
    readonly liveOf: (userIds: ReadonlyArray<UserId>) => Effect.Effect<ReadonlyMap<UserId, Mandate>>
    readonly findByRedirectFlow: (userId: UserId, redirectFlowId: string) => Effect.Effect<Option.Option<Mandate>>
    /** The setup with the provider's id (BRQ...), whoever's it is: the provider's events name only that. */
    readonly findBySetup: (redirectFlowId: string) => Effect.Effect<Option.Option<Mandate>>
    /** The mandate with the provider's id (MD...), whoever's it is: the provider's events name only that. */
    readonly findByReference: (reference: string) => Effect.Effect<Option.Option<Mandate>>
    /**
     * Moves the mandate from `from` to `to` only if it still is `from`; false when something else
     * moved it first. DuplicateKey "live" when it would make a second live one.
     */
    readonly moveStatus: (
      mandate: Mandate,
      from: StoredMandateStatus,
      to: StoredMandateStatus
    ) => Effect.Effect<boolean, DuplicateKey>
  }
>() {}
