import { Context, type Effect } from "effect"

/** The first answer given to a request made under an idempotency key, kept to answer its retries. */
export interface StoredAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

/** A request made under a key: who made it, the key, and a digest of what was asked. */
export interface KeyedRequest {
  readonly scope: string
  readonly key: string
  readonly fingerprint: string
  /** Identifies this attempt's claim, so that it completes or releases nobody else's. */
  readonly claimId: string
}

/** Where a key stands when a request arrives with it. */
export type KeyClaim =
  /** The key was free (or its last use expired): this request does the work. */
  | { readonly _tag: "Claimed" }
  /** An earlier request with the key and the same fingerprint was answered: answer that again. */
  | { readonly _tag: "Answered"; readonly answer: StoredAnswer }
  /** An earlier request with the key has not been answered yet. */
  | { readonly _tag: "InProgress" }
  /** The key was used for a different request. */
  | { readonly _tag: "UsedForAnotherRequest" }

/** Idempotency keys, shared by every server process. */
export class IdempotencyKeys extends Context.Tag("core/IdempotencyKeys")<
  IdempotencyKeys,
  {
    /**
     * Claims the key for the request. A key first used before `expiredBefore` counts as free,
     * and so does a claim whose lease ran out (its process died before answering); a new claim
     * holds its lease until `leaseUntil`.
     */
    readonly claim: (
      request: KeyedRequest,
      at: { readonly now: Date; readonly expiredBefore: Date; readonly leaseUntil: Date }
    ) => Effect.Effect<KeyClaim>
    /** Keeps the answer of the claim for the key's retries. */
    readonly complete: (request: KeyedRequest, answer: StoredAnswer) => Effect.Effect<void>
    /** Frees the key (an answer that must not be replayed): a retry does the work again. */
    readonly release: (request: KeyedRequest) => Effect.Effect<void>
    /** Deletes keys first used before the instant; how many. */
    readonly sweep: (expiredBefore: Date) => Effect.Effect<number>
  }
>() {}
