import { Effect, Option, Schema } from "effect"
import { Mandate } from "./Mandate.js"
import { flowExpiry } from "./MandateFlow.js"
import { prefilledCustomer } from "./Prefill.js"
import type { StoredMandateStatus } from "./MandateStatus.js"
import { mandateStatusOf } from "./ProviderMandateStatus.js"
import { formatSessionToken, SESSION_TOKEN_BYTES, sameToken } from "./SessionToken.js"
import { SuccessRedirectUrl } from "./SuccessRedirectUrl.js"
import { Conflict, NotFound, Refused, type ValidationFailed } from "../../Errors.js"
import { MandateId } from "../../Ids.js"
import { BillingProfileRepo } from "./BillingProfileRepo.js"
import { Clock } from "../../system/Clock.js"
import { Crypto } from "../../system/Crypto.js"
import {
  CANCELLATION_FAILED,
  DirectDebit,
  type DirectDebitRefused,
  SETUP_CANCELLED,
  SETUP_NOT_FINISHED
} from "./DirectDebit.js"
import { IdGenerator } from "../../system/IdGenerator.js"
import { MandateRepo } from "./MandateRepo.js"
import { MandateCompletion } from "./MandateCompletion.js"
import { CurrentUser } from "../../users/CurrentUser.js"
import type { User } from "../../users/User.js"
import { decodeInput } from "../../Validation.js"

export interface MandateSetup {
  readonly redirectFlowId: string
  readonly redirectUrl: string
  readonly sessionToken: string
}

/** A mandate setup asked for, not yet checked (the sdk's CreateMandateSetupRequest decodes to it). */
export interface NewMandateSetup {
  readonly successRedirectUrl: string
}

/** A started setup to complete, not yet checked (the sdk's CompleteMandateSetupRequest decodes to it). */
export interface MandateSetupCompletion {
  readonly redirectFlowId: string
  readonly sessionToken: string
}

// The two requests' rules: the sdk's schemas only describe them.
const SetupInput = Schema.Struct({ successRedirectUrl: SuccessRedirectUrl })
const CompleteInput = Schema.Struct({
  redirectFlowId: Schema.Trim.pipe(Schema.minLength(1, { message: () => "A redirect flow id is required" })),
  sessionToken: Schema.String.pipe(Schema.minLength(1, { message: () => "The session token is required" }))
})

const refusedBy = (error: DirectDebitRefused) =>
  new Refused({ detail: `The direct debit provider refused: ${error.message}` })

const noMandate = new NotFound({
  detail: "You have no direct debit mandate: start a mandate setup to make one.",
  remedy: { _tag: "StartMandateSetup" }
})

/** The calling user's direct debit mandate: set up through the provider's hosted page, read, cancelled. */
export class Mandates extends Effect.Service<Mandates>()("core/Mandates", {
  effect: Effect.gen(function* () {
    const repo = yield* MandateRepo
    const profiles = yield* BillingProfileRepo
    const provider = yield* DirectDebit
    const completion = yield* MandateCompletion
    const clock = yield* Clock
    const crypto = yield* Crypto
    const ids = yield* IdGenerator

    const refreshed = (mandate: Mandate): Effect.Effect<Mandate, Refused> =>
      completion.refreshed(mandate).pipe(Effect.mapError(refusedBy))

    const setup = (
      input: NewMandateSetup
    ): Effect.Effect<MandateSetup, ValidationFailed | Refused | Conflict, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const { successRedirectUrl } = yield* decodeInput(SetupInput)(input)
        const customer = prefilledCustomer(user, yield* profiles.get(user.id))
        if (customer === null) {
          return yield* new Refused({
            detail:
              "A mandate setup needs an email address, and neither your billing profile nor your account has one: set billingEmail on your billing profile first.",
            remedy: { _tag: "SetBillingEmail" }
          })
        }
        const now = yield* clock.now
        const reserved = new Mandate({
          id: MandateId.make(yield* ids.uuid),
          userId: user.id,
          status: "InProgress",
          sessionToken: formatSessionToken(yield* crypto.randomBytes(SESSION_TOKEN_BYTES)),
          redirectFlowId: null,
          redirectUrl: null,
          reference: null,
          accountHolderName: null,
          bankName: null,
          accountNumberEnding: null,
          nextPossibleChargeDate: null,
          createdAt: now,
          expiresAt: flowExpiry(now),
          completedAt: null
        })
        const expired = yield* repo.reserve(reserved, now).pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(
              new Conflict({
                detail:
                  "You already have an active or in-progress direct debit mandate: cancel it before setting up another.",
                remedy: { _tag: "CancelMandate" }
              })
            )
          )
        )
        yield* completion.cancelExpired(expired)
        // The reservation is the caller's only live slot: give it back if the provider never takes the setup up.
        const flow = yield* provider
          .startMandateSetup({ userId: user.id, successRedirectUrl, prefilledCustomer: customer }, reserved.id)
          .pipe(
            Effect.mapError(refusedBy),
            Effect.onError(() => repo.remove(user.id, reserved.id))
          )
        const started = new Mandate({
          ...reserved,
          redirectFlowId: flow.id,
          redirectUrl: flow.redirectUrl,
          expiresAt: flow.expiresAt
        })
        if (!(yield* repo.replace(reserved, started).pipe(Effect.orDie))) {
          return yield* Effect.dieMessage(`Mandate setup ${reserved.id} changed before the provider took it up`)
        }
        return { redirectFlowId: flow.id, redirectUrl: flow.redirectUrl, sessionToken: reserved.sessionToken }
      }).pipe(Effect.withSpan("Mandates.setup"))

    const complete = (input: MandateSetupCompletion): Effect.Effect<Mandate, ValidationFailed | Refused, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const { redirectFlowId, sessionToken } = yield* decodeInput(CompleteInput)(input)
        const found = yield* repo.findByRedirectFlow(user.id, redirectFlowId)
        if (Option.isNone(found) || !sameToken(found.value.sessionToken, sessionToken)) {
          return yield* new Refused({
            detail: "The redirect flow and session token do not match a mandate setup you started."
          })
        }
        const flow = found.value
        if (flow.reference !== null) return yield* refreshed(flow)
        const now = yield* clock.now
        if (flow.status === "Expired" || flow.isExpiredFlow(now)) {
          // Marked Expired, and cancelled with the provider, when the next setup starts (MandateRepo.reserve).
          return yield* new Refused({
            detail: "This mandate setup has expired (its page could be completed for 7 days): start a new one.",
            remedy: { _tag: "StartMandateSetup" }
          })
        }
        if (flow.status !== "InProgress") {
          return yield* new Refused({ detail: `This mandate setup is ${flow.status} and cannot be completed.` })
        }
        return yield* completion.complete(flow).pipe(
          Effect.catchIf(
            (error) => error.reason === SETUP_CANCELLED,
            () =>
              repo.moveStatus(flow, "InProgress", "Expired").pipe(
                Effect.orDie,
                Effect.zipRight(
                  new Refused({
                    detail: "This mandate setup was cancelled with the direct debit provider: start a new one.",
                    remedy: { _tag: "StartMandateSetup" }
                  })
                )
              )
          ),
          Effect.mapError((error) =>
            error._tag === "Refused"
              ? error
              : error.reason === SETUP_NOT_FINISHED
                ? new Refused({
                    detail:
                      "The customer has not finished the direct debit provider's page yet: complete it, then try again."
                  })
                : refusedBy(error)
          )
        )
      }).pipe(Effect.withSpan("Mandates.complete"))

    /**
     * The caller's latest mandate, its status refreshed from the provider (a mandate the provider
     * replaced is followed to its new one). A setup is answered Expired once its flow's time ran
     * out, and never cancelled here: until then the customer may still be on its page. The refresh
     * is stored only if nothing changed the mandate meanwhile; else what changed it (a provider
     * event) stands.
     */
    const get = (): Effect.Effect<Mandate, NotFound | Refused, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const latest = yield* repo.latest(user.id)
        if (Option.isNone(latest)) {
          return yield* new NotFound({
            detail: "No direct debit mandate setup was started: start one to make a mandate.",
            remedy: { _tag: "StartMandateSetup" }
          })
        }
        const read = latest.value
        const now = yield* clock.now
        // Marked Expired, and cancelled with the provider, when the next setup starts (MandateRepo.reserve).
        if (read.isExpiredFlow(now)) return new Mandate({ ...read, status: "Expired" })
        const current = yield* refreshed(read)
        if (current === read || (yield* repo.replace(read, current).pipe(Effect.orDie))) return current
        return Option.getOrElse(yield* repo.latest(user.id), () => current)
      }).pipe(Effect.withSpan("Mandates.get"))

    /**
     * Cancels the caller's mandate with the provider; a new setup can start at once. A mandate the
     * provider replaced, whether its event arrived or not, is followed: the new one is cancelled.
     */
    const cancel = (): Effect.Effect<void, NotFound | Refused, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const live = yield* repo.live(user.id)
        if (Option.isNone(live) || live.value.reference === null) return yield* noMandate
        yield* cancelLive(live.value)
      }).pipe(Effect.withSpan("Mandates.cancel"))

    /**
     * Cancels the mandate with the provider: its status then, and the mandate cancelled. One the
     * payer or the provider cancelled meanwhile (GoCardless: invalid_state cancellation_failed)
     * is as good, unless the provider replaced it (`links.new_mandate`): then the new one is.
     */
    const cancelAtProvider = (
      reference: string
    ): Effect.Effect<{ readonly reference: string; readonly status: StoredMandateStatus }, DirectDebitRefused> =>
      provider.cancelMandate(reference).pipe(
        Effect.map((mandate) => ({ reference, status: mandateStatusOf(mandate.status) })),
        Effect.catchIf(
          (error) => error.reason === CANCELLATION_FAILED,
          () =>
            Effect.flatMap(provider.getMandate(reference), (mandate) =>
              mandate.newMandateId === null
                ? Effect.succeed({ reference, status: "Cancelled" as const })
                : cancelAtProvider(mandate.newMandateId)
            )
        )
      )

    const cancelLive = (live: Mandate): Effect.Effect<void, Refused> =>
      Effect.gen(function* () {
        const cancelled = yield* cancelAtProvider(live.reference ?? "").pipe(Effect.mapError(refusedBy))
        if (yield* repo.replace(live, new Mandate({ ...live, ...cancelled })).pipe(Effect.orDie)) return
        const now = yield* repo.live(live.userId)
        if (Option.isSome(now) && now.value.reference !== null && now.value.reference !== cancelled.reference) {
          yield* cancelLive(now.value)
        }
      })

    /** The latest mandate of a user, as support staff see it (no provider round trip). */
    const latestOf = (user: User): Effect.Effect<Option.Option<Mandate>> =>
      Effect.all([repo.latest(user.id), clock.now]).pipe(
        Effect.map(([latest, now]) => Option.map(latest, (m) => new Mandate({ ...m, status: m.statusAt(now) })))
      )

    return { setup, complete, get, cancel, latestOf } as const
  })
}) {}
