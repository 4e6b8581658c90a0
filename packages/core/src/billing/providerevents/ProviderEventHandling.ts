import { Data, Duration, Effect, Option } from "effect"
import type { BillingInvoice } from "../billinginvoices/BillingInvoice.js"
import { type BillingNotice, mandateEndedNotice, paymentFailedNotice } from "./BillingNotice.js"
import { invoicePaymentStatusOf } from "../billinginvoices/InvoicePaymentStatus.js"
import type { StoredMandateStatus } from "../mandates/MandateStatus.js"
import type { ProviderEventOutcome } from "./ProviderEvent.js"
import { mandateStatusOf } from "../mandates/ProviderMandateStatus.js"
import { afterFailure } from "../billinginvoices/FailedPayments.js"
import { DirectDebitFault, DirectDebitUnavailable } from "../mandates/DirectDebitFaults.js"
import { Mandate } from "../mandates/Mandate.js"
import {
  mandateEnded,
  mandateProgress,
  mandateStatusOfAction,
  paymentProgress,
  paymentStatusOfAction
} from "./StatusProgress.js"
import { MailId, type UserId } from "../../Ids.js"
import type { InvoicePaymentStatus } from "../billinginvoices/InvoicePaymentStatus.js"
import { BillingInvoiceRepo } from "../billinginvoices/BillingInvoiceRepo.js"
import { BillingProfileRepo } from "../mandates/BillingProfileRepo.js"
import { Clock } from "../../system/Clock.js"
import { DirectDebit, type DirectDebitRefused, SETUP_NOT_FINISHED } from "../mandates/DirectDebit.js"
import { IdGenerator } from "../../system/IdGenerator.js"
import { MailOutbox } from "../../mail/MailOutbox.js"
import { MandateCompletion } from "../mandates/MandateCompletion.js"
import { MandateRepo } from "../mandates/MandateRepo.js"
import { type ClaimedProviderEvent, ProviderEventInbox } from "./ProviderEventInbox.js"
import { Transactor } from "../../system/Transactor.js"
import { UserRepo } from "../../users/UserRepo.js"

/**
 * How long an event that cannot be settled yet (GoCardless down, or a setup's page not yet
 * finished there) waits before it is tried again: a minute, doubled with each attempt, at most an
 * hour, and never sooner than the provider asked.
 */
const retryDelay = (attempts: number, retryAfterSeconds: number) =>
  Duration.max(
    Duration.min(Duration.times(Duration.minutes(1), 2 ** Math.min(attempts, 6)), Duration.hours(1)),
    Duration.seconds(retryAfterSeconds)
  )

/** How often a decision is made again when the resource moved between reading and writing it. */
const RACES_TRIED = 5

/** Another handler moved the resource between our read and our write: decide again. */
class Raced extends Data.TaggedError("Raced") {}

/** The event's lease was taken over by another worker: its transaction is undone, the other settles it. */
class LeaseLost extends Data.TaggedError("LeaseLost") {}

/** What came of one attempt: settled (written in its own transaction), lost to another worker, or to try again. */
export type ProviderEventAttempt =
  | {
      readonly _tag: "Settled"
      readonly outcome: ProviderEventOutcome
      /** Why the event was given up: the provider refused what cannot succeed by waiting. */
      readonly gaveUp?: string
    }
  | { readonly _tag: "Lost" }
  | { readonly _tag: "Postponed"; readonly id: string; readonly leaseToken: string; readonly retryAt: Date }

const settled = (outcome: ProviderEventOutcome): ProviderEventAttempt => ({ _tag: "Settled", outcome })

/**
 * The direct debit provider's events (GoCardless's notifications) handled by a worker, each once, after
 * ProviderEventReceiving put them in the inbox. A billing request event completes or ends the
 * user's mandate setup, a mandate event moves the user's mandate, a payment event the invoice it
 * collects; a move that would go back (an event that arrived late) is settled by
 * asking the provider where the resource stands now. A payment that fails and a mandate that
 * ends queue a notice to the user's billing email in the transaction of the change.
 */
export class ProviderEventHandling extends Effect.Service<ProviderEventHandling>()("core/ProviderEventHandling", {
  effect: Effect.gen(function* () {
    const inbox = yield* ProviderEventInbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator
    const mandates = yield* MandateRepo
    const invoices = yield* BillingInvoiceRepo
    const profiles = yield* BillingProfileRepo
    const users = yield* UserRepo
    const outbox = yield* MailOutbox
    const provider = yield* DirectDebit
    const completion = yield* MandateCompletion

    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => inbox.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    /** The address the user's billing notices go to: the billing profile's, else their own. */
    const billingEmailOf = (userId: UserId) =>
      Effect.gen(function* () {
        const profile = yield* profiles.get(userId)
        if (Option.isSome(profile)) return Option.some(profile.value.billingEmail)
        return Option.flatMap(yield* users.findById(userId), (user) => Option.fromNullable(user.email))
      })

    const queueNotice = (userId: UserId, notice: (to: BillingNotice["to"]) => BillingNotice) =>
      Effect.gen(function* () {
        const to = yield* billingEmailOf(userId)
        if (Option.isNone(to)) {
          return yield* Effect.logWarning("A billing notice has no address to go to: the user has none").pipe(
            Effect.annotateLogs({ user: userId })
          )
        }
        const { body, subject } = notice(to.value)
        yield* outbox.add({
          tenantId: null,
          userId,
          id: MailId.make(yield* ids.uuid),
          type: "BillingNotice",
          to: to.value,
          fromName: "cisbook billing",
          replyTo: null,
          subject,
          body,
          attachments: [],
          createdAt: yield* clock.now
        })
      })

    /** Writes `effects` and settles the event in one transaction; undone when the lease was lost. */
    const settle = <E>(claimed: ClaimedProviderEvent, outcome: ProviderEventOutcome, effects: Effect.Effect<void, E>) =>
      transaction(
        Effect.gen(function* () {
          yield* effects
          const ours = yield* inbox.settle(claimed.event.id, claimed.leaseToken, outcome, yield* clock.now)
          if (!ours) return yield* new LeaseLost()
        })
      ).pipe(Effect.as(settled(outcome)))

    const moveMandate = (claimed: ClaimedProviderEvent, mandate: Mandate, to: StoredMandateStatus) =>
      settle(
        claimed,
        "applied",
        Effect.gen(function* () {
          const moved = yield* mandates.moveStatus(mandate, mandate.status, to)
          if (!moved) return yield* new Raced()
          if (mandateEnded(to) && !mandateEnded(mandate.status)) {
            const unpaid = (yield* invoices.list(mandate.userId)).filter(
              (i) => i.paymentStatus !== "Paid" && i.paymentStatus !== "WaitingForMandate"
            )
            yield* queueNotice(mandate.userId, (email) =>
              mandateEndedNotice(email, mandate.reference ?? mandate.id, to, unpaid)
            )
          }
        })
      ).pipe(
        // The provider's word would make a second live mandate of the user's: the newer one stands.
        Effect.catchTag("DuplicateKey", () => settle(claimed, "ignored", Effect.void))
      )

    const handleMandate = (claimed: ClaimedProviderEvent, target: StoredMandateStatus, reference: string) =>
      Effect.gen(function* () {
        const found = yield* mandates.findByReference(reference)
        if (Option.isNone(found)) return yield* settle(claimed, "ignored", Effect.void)
        const mandate = found.value
        const progress = mandateProgress(mandate.status, target)
        if (progress === "forward") return yield* moveMandate(claimed, mandate, target)
        if (progress === "same") return yield* settle(claimed, "duplicate", Effect.void)
        const now = mandateStatusOf((yield* provider.getMandate(reference)).status)
        return now === mandate.status
          ? yield* settle(claimed, "ignored", Effect.void)
          : yield* moveMandate(claimed, mandate, now)
      })

    /** The mandate as the provider now holds `reference`: status, charge date and bank account. */
    const mandateAsProvider = (mandate: Mandate, reference: string) =>
      Effect.gen(function* () {
        const current = yield* provider.getMandate(reference)
        const account = yield* provider.getBankAccount(current.customerBankAccountId)
        return new Mandate({
          ...mandate,
          reference,
          status: mandateStatusOf(current.status),
          nextPossibleChargeDate: current.nextPossibleChargeDate,
          ...account
        })
      })

    /**
     * `replaced`: the provider moved the mandate to a new one (`links.new_mandate`), which every
     * later payment goes to; `transferred`: the payer's bank account changed. Either way the
     * user's mandate is read again from the provider.
     */
    const handleMandateMoved = (claimed: ClaimedProviderEvent, reference: string) =>
      Effect.gen(function* () {
        const replacement = claimed.event.action === "replaced" ? claimed.event.links["new_mandate"] : undefined
        const found = yield* mandates.findByReference(reference)
        if (Option.isNone(found)) {
          const already = replacement === undefined ? Option.none() : yield* mandates.findByReference(replacement)
          return yield* settle(claimed, Option.isSome(already) ? "duplicate" : "ignored", Effect.void)
        }
        const now = yield* mandateAsProvider(found.value, replacement ?? reference)
        return yield* settle(
          claimed,
          "applied",
          Effect.flatMap(mandates.replace(found.value, now), (stored) => (stored ? Effect.void : new Raced()))
        ).pipe(Effect.catchTag("DuplicateKey", () => settle(claimed, "ignored", Effect.void)))
      })

    /** Where the invoice goes after failing: told to the user in the notice, done by the billing run. */
    const nextAfterFailure = (invoice: BillingInvoice, failedAt: Date, why: string) =>
      Effect.map(mandates.live(invoice.userId), (live) =>
        afterFailure(
          invoice,
          failedAt,
          why === "failed",
          Option.getOrNull(Option.flatMapNullable(live, (m) => m.reference))
        )
      )

    const movePayment = (
      claimed: ClaimedProviderEvent,
      invoice: BillingInvoice,
      to: InvoicePaymentStatus,
      why: string
    ) =>
      settle(
        claimed,
        "applied",
        Effect.gen(function* () {
          const now = yield* clock.now
          const moved = yield* invoices.movePaymentStatus(invoice, invoice.paymentStatus, to, now)
          if (!moved) return yield* new Raced()
          if (to === "Failed" && invoice.paymentStatus !== "Failed") {
            const next = yield* nextAfterFailure(invoice, now, why)
            const description = claimed.event.details["description"]
            yield* queueNotice(invoice.userId, (email) =>
              paymentFailedNotice(email, invoice, why, typeof description === "string" ? description : null, next)
            )
          }
        })
      )

    const handlePayment = (claimed: ClaimedProviderEvent, target: InvoicePaymentStatus, reference: string) =>
      Effect.gen(function* () {
        const found = yield* invoices.findByPaymentReference(reference)
        if (Option.isNone(found)) return yield* settle(claimed, "ignored", Effect.void)
        const invoice = found.value
        const progress = paymentProgress(invoice.paymentStatus, target)
        if (progress === "forward") return yield* movePayment(claimed, invoice, target, claimed.event.action)
        if (progress === "same") return yield* settle(claimed, "duplicate", Effect.void)
        const payment = yield* provider.getPayment(reference)
        const now = invoicePaymentStatusOf(payment.status)
        return now === invoice.paymentStatus
          ? yield* settle(claimed, "ignored", Effect.void)
          : yield* movePayment(claimed, invoice, now, payment.status)
      })

    /**
     * A mandate setup's billing request: `fulfilled` completes the setup as the user's PUT would
     * have (the customer finished the page but never came back), `cancelled` ends a setup still
     * in progress Expired.
     */
    const handleSetup = (claimed: ClaimedProviderEvent, setupId: string) =>
      Effect.gen(function* () {
        const found = yield* mandates.findBySetup(setupId)
        if (Option.isNone(found)) return yield* settle(claimed, "ignored", Effect.void)
        const setup = found.value
        if (setup.reference !== null) return yield* settle(claimed, "duplicate", Effect.void)
        if (claimed.event.action === "fulfilled") {
          yield* completion.complete(setup)
          return yield* settle(claimed, "applied", Effect.void)
        }
        if (setup.status !== "InProgress") return yield* settle(claimed, "duplicate", Effect.void)
        return yield* settle(
          claimed,
          "applied",
          Effect.flatMap(mandates.moveStatus(setup, "InProgress", "Expired").pipe(Effect.orDie), (moved) =>
            moved ? Effect.void : Effect.fail(new Raced())
          )
        )
      })

    const decide = (
      claimed: ClaimedProviderEvent
    ): Effect.Effect<ProviderEventAttempt, DirectDebitRefused | Raced | LeaseLost> => {
      const { action, details, resourceId, resourceType } = claimed.event
      if (resourceId !== null && resourceType === "mandates" && (action === "replaced" || action === "transferred")) {
        return handleMandateMoved(claimed, resourceId)
      }
      if (resourceId !== null && resourceType === "mandates") {
        const target = mandateStatusOfAction(action)
        if (target !== undefined) return handleMandate(claimed, target, resourceId)
      }
      if (resourceId !== null && resourceType === "billing_requests" && ["fulfilled", "cancelled"].includes(action)) {
        return handleSetup(claimed, resourceId)
      }
      if (resourceId !== null && resourceType === "payments") {
        const target = paymentStatusOfAction(action, details)
        if (target !== undefined) return handlePayment(claimed, target, resourceId)
      }
      return settle(claimed, "ignored", Effect.void)
    }

    /**
     * The event cannot be settled yet (the provider could not be reached, or a fulfilled setup's
     * page is not finished there yet): it is tried again later, each time after longer.
     */
    const postpone = (claimed: ClaimedProviderEvent, why: string, reason: string, retryAfterSeconds: number) =>
      Effect.logWarning(`${why}; the event is tried again later`).pipe(
        Effect.annotateLogs({ event: claimed.event.id, reason, attempts: claimed.attempts + 1 }),
        Effect.zipRight(clock.now),
        Effect.map((now): ProviderEventAttempt => ({
          _tag: "Postponed",
          id: claimed.event.id,
          leaseToken: claimed.leaseToken,
          retryAt: new Date(now.getTime() + Duration.toMillis(retryDelay(claimed.attempts, retryAfterSeconds)))
        }))
      )

    /**
     * The provider refused to answer about the event's resource (it does not know it, say): that
     * will not change by waiting, so the event is settled `ignored` and the reason logged.
     */
    const giveUp = (claimed: ClaimedProviderEvent, refused: DirectDebitRefused | DirectDebitFault) =>
      Effect.logError(
        "The direct debit provider refused a question about an event's resource; the event is given up"
      ).pipe(
        Effect.annotateLogs({ event: claimed.event.id, reason: refused.reason, message: refused.message }),
        Effect.zipRight(settle(claimed, "ignored", Effect.void)),
        Effect.as<ProviderEventAttempt>({
          _tag: "Settled",
          outcome: "ignored",
          gaveUp: `${refused.reason}: ${refused.message}`
        })
      )

    /**
     * Handles one leased event and settles it in the transaction of its effects. A provider that
     * cannot be reached, or a setup not yet finished there, postpones it; any other refusal gives it
     * up; a lease lost to another worker leaves it to that one.
     */
    const attempt = (claimed: ClaimedProviderEvent): Effect.Effect<ProviderEventAttempt> =>
      decide(claimed).pipe(
        Effect.retry({ times: RACES_TRIED, while: (error) => error._tag === "Raced" }),
        Effect.catchTag("DirectDebitRefused", (refused) =>
          refused.reason === SETUP_NOT_FINISHED
            ? postpone(claimed, "The setup's page is not finished with the provider yet", refused.message, 0)
            : giveUp(claimed, refused)
        ),
        Effect.catchSomeDefect((defect) =>
          defect instanceof DirectDebitUnavailable
            ? Option.some(
                postpone(claimed, "The direct debit provider is unavailable", defect.message, defect.retryAfterSeconds)
              )
            : defect instanceof DirectDebitFault
              ? Option.some(giveUp(claimed, defect))
              : Option.none()
        ),
        Effect.catchTags({
          LeaseLost: () => Effect.succeed<ProviderEventAttempt>({ _tag: "Lost" }),
          Raced: (error) => Effect.die(error)
        }),
        Effect.withSpan("ProviderEventHandling.attempt", { attributes: { event: claimed.event.id } })
      )

    /** Settled events were recorded with their effects; what is left is to release the postponed ones. */
    const record = (attempts: ReadonlyArray<ProviderEventAttempt>): Effect.Effect<void> => {
      const postponed = attempts.flatMap((a) => (a._tag === "Postponed" ? [a] : []))
      return postponed.length === 0 ? Effect.void : inbox.postpone(postponed)
    }

    return { claim, attempt, record } as const
  })
}) {}
