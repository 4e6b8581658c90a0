import { Effect, Option } from "effect"
import { Mandate } from "./Mandate.js"
import { mandateStatusOf } from "./ProviderMandateStatus.js"
import { Clock } from "../../system/Clock.js"
import { CANCELLATION_FAILED, DirectDebit, type DirectDebitRefused } from "./DirectDebit.js"
import { MandateRepo } from "./MandateRepo.js"
import { WaitingInvoices } from "./WaitingInvoices.js"

/**
 * How a started mandate setup becomes the user's mandate, whoever notices first that the
 * customer finished the provider's page: the user's browser coming back (PUT), or the provider's
 * `billing_requests` `fulfilled` event. Completions race (two requests, a request and the event):
 * the first to store the mandate wins and the others answer what it stored, so everyone sees the
 * same mandate and the invoices waiting for one are put forward once.
 */
export class MandateCompletion extends Effect.Service<MandateCompletion>()("core/MandateCompletion", {
  effect: Effect.gen(function* () {
    const repo = yield* MandateRepo
    const provider = yield* DirectDebit
    const waiting = yield* WaitingInvoices
    const clock = yield* Clock

    /**
     * The mandate with the provider's current status and account holder. A mandate the provider
     * replaced (GoCardless: cancelled, `links.new_mandate`) goes on as its new one, as the
     * `replaced` event says: whichever of the two is noticed first, the user is on the new one.
     */
    const refreshed = (mandate: Mandate): Effect.Effect<Mandate, DirectDebitRefused> => {
      const reference = mandate.reference
      return reference === null
        ? Effect.succeed(mandate)
        : Effect.gen(function* () {
            const read = yield* provider.getMandate(reference)
            const current = read.newMandateId === null ? read : yield* provider.getMandate(read.newMandateId)
            const account =
              mandate.accountHolderName === null || current.id !== reference
                ? yield* provider.getBankAccount(current.customerBankAccountId)
                : {
                    accountHolderName: mandate.accountHolderName,
                    bankName: mandate.bankName,
                    accountNumberEnding: mandate.accountNumberEnding ?? ""
                  }
            return new Mandate({
              ...mandate,
              reference: current.id,
              status: mandateStatusOf(current.status),
              nextPossibleChargeDate: current.nextPossibleChargeDate,
              ...account
            })
          })
    }

    /** What another completion stored first. */
    const stored = (setup: Mandate) =>
      Effect.flatMap(repo.findBySetup(setup.redirectFlowId ?? ""), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.dieMessage(`Mandate setup ${setup.id} vanished`)
      )

    /**
     * The setup's mandate once another live mandate of the user's was kept: cancelled with the
     * provider, stored Cancelled; the user's live mandate is the answer.
     */
    const keptOther = (completed: Mandate, reference: string) =>
      Effect.gen(function* () {
        yield* provider.cancelMandate(reference).pipe(
          Effect.catchIf(
            (refused) => refused.reason === CANCELLATION_FAILED,
            () => Effect.void
          )
        )
        const cancelled = yield* repo
          .completeSetup(new Mandate({ ...completed, status: "Cancelled" }))
          .pipe(Effect.catchTag("DuplicateKey", (e) => Effect.die(e)))
        if (!cancelled) return yield* stored(completed)
        return Option.getOrElse(yield* repo.live(completed.userId), () => completed)
      })

    /**
     * Completes a setup with the provider's mandate and puts the user's waiting invoices forward
     * on it; a setup already complete answers its mandate. When the user meanwhile holds another
     * live mandate (a setup finished after it had expired here), that one is kept: the setup's
     * mandate is cancelled with the provider and stored Cancelled.
     */
    const complete = (setup: Mandate): Effect.Effect<Mandate, DirectDebitRefused> =>
      Effect.gen(function* () {
        if (setup.reference !== null || setup.redirectFlowId === null) return setup
        const reference = yield* provider.completeMandateSetup(setup.redirectFlowId)
        const completed = yield* refreshed(new Mandate({ ...setup, reference, completedAt: yield* clock.now }))
        const won = yield* repo
          .completeSetup(completed)
          .pipe(Effect.catchTag("DuplicateKey", () => Effect.succeed(null)))
        if (won === null) return yield* keptOther(completed, reference)
        if (!won) return yield* stored(setup)
        yield* waiting.putForward(setup.userId, reference)
        return completed
      }).pipe(Effect.withSpan("MandateCompletion.complete"))

    /** Cancels with the provider setups that expired here, so that their page makes no mandate; best effort. */
    const cancelExpired = (setupIds: ReadonlyArray<string>): Effect.Effect<void> =>
      Effect.forEach(
        setupIds,
        (id) =>
          provider
            .cancelMandateSetup(id)
            .pipe(
              Effect.catchTag("DirectDebitRefused", (refused) =>
                Effect.logInfo("An expired mandate setup could not be cancelled with the provider").pipe(
                  Effect.annotateLogs({ setup: id, reason: refused.message })
                )
              )
            ),
        { discard: true }
      )

    return { refreshed, complete, cancelExpired } as const
  })
}) {}
