import { Effect, Either, Option, Schema } from "effect"
import { schemeRequired } from "../cis/SchemeRequired.js"
import { credentialsRequired } from "../credentials/CredentialsRequired.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { Conflict, NotFound, Refused, ValidationFailed } from "../Errors.js"
import { type ContactId, isUuid, MonthlyReturnId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { MonthlyReturnRepo } from "./MonthlyReturnRepo.js"
import { TenantSettingsRepo } from "../tenants/TenantSettingsRepo.js"
import { Transactor } from "../system/Transactor.js"
import { contractorIdentity } from "./ContractorIdentity.js"
import { MonthlyReturn, resubmitted, ReturnContractor, ReturnLine } from "./MonthlyReturn.js"
import { lineErrors, type NewMonthlyReturn, returnKind, returnShapeErrors } from "./ReturnInput.js"
import { draftReturn, type ReturnDraft } from "./ReturnDraft.js"
import { SubcontractorPayments } from "./SubcontractorPayments.js"
import { acceptedReturnsFrom, verifiedTooLongAgo } from "./VerifyAgain.js"
import { PeriodEnd, taxMonthEndOf, taxMonthStart } from "./TaxMonth.js"
import { memberPath } from "../MemberPath.js"
import type { Tenant } from "../tenants/Tenant.js"
import { ukCalendarDate } from "../CalendarDate.js"
import { failIfAny } from "../Validation.js"
import { CurrentUser } from "../users/CurrentUser.js"
import { declarationErrors, declared } from "./ReturnDeclarations.js"
import { FilingCheck } from "../taxauthority/FilingCheck.js"
import { returnFilingErrors } from "../taxauthority/FilingProblems.js"

export class MonthlyReturns extends Effect.Service<MonthlyReturns>()("core/MonthlyReturns", {
  effect: Effect.gen(function* () {
    const repo = yield* MonthlyReturnRepo
    const contacts = yield* ContactRepo
    const settings = yield* TenantSettingsRepo
    const credentials = yield* HmrcCredentialsRepo
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator
    const filing = yield* FilingCheck
    const subcontractorPayments = yield* SubcontractorPayments

    /** The tax month ending `periodEnd` must have started: 400 naming periodEnd otherwise. */
    const startedMonth = (periodEnd: string) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const currentEnd = taxMonthEndOf(ukCalendarDate(now))
        if (periodEnd > currentEnd)
          return yield* ValidationFailed.one(
            "periodEnd",
            `The tax month ending ${periodEnd} has not started yet: the current one ends on ${currentEnd}`
          )
        return now
      })

    const paymentsIn = (tenant: Tenant, periodEnd: string) =>
      subcontractorPayments.between(tenant.id, taxMonthStart(periodEnd), periodEnd)

    const draftOf = (tenant: Tenant, periodEnd: string): Effect.Effect<ReturnDraft> =>
      Effect.gen(function* () {
        const payments = yield* paymentsIn(tenant, periodEnd)
        const codes = [...new Set(payments.map((p) => p.contactCode))]
        const found = codes.length === 0 ? [] : yield* contacts.findByCodes(tenant.id, codes)
        const tooLongAgo = found.filter((c) => verifiedTooLongAgo(c, periodEnd)).map((c) => c.id)
        const onAcceptedReturns =
          tooLongAgo.length === 0
            ? new Set<ContactId>()
            : yield* repo.onAcceptedReturnsSince(tenant.id, acceptedReturnsFrom(periodEnd), tooLongAgo)
        return draftReturn(periodEnd, payments, new Map(found.map((c) => [c.id, c])), onAcceptedReturns)
      })

    /**
     * The return the tenant's payments to its CIS subcontractors in the tax month ending
     * `periodEnd` draft: a line per subcontractor paid, and what to check before filing it.
     */
    const draft = (periodEnd: string): Effect.Effect<ReturnDraft, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        // The front ends that are not the API (the CLI) hand the period over as typed.
        if (Either.isLeft(Schema.decodeEither(PeriodEnd)(periodEnd)))
          return yield* ValidationFailed.one(
            "periodEnd",
            "Must be the last day of a tax month: the 5th, for example 2026-06-05"
          )
        yield* startedMonth(periodEnd)
        return yield* draftOf(tenant, periodEnd)
      }).pipe(Effect.withSpan("MonthlyReturns.draft"))

    /** Inside the filing's transaction, the month held: the month's payments are still the draft's. */
    const sameDraft = (tenant: Tenant, drafted: ReturnDraft): Effect.Effect<void, Conflict> =>
      Effect.flatMap(paymentsIn(tenant, drafted.periodEnd), (now) => {
        const ids = (list: ReadonlyArray<string>) => [...list].sort().join(" ")
        return ids(now.map((p) => p.paymentId)) === ids(drafted.lines.flatMap((l) => l.payments.map((p) => p.payment)))
          ? Effect.void
          : Effect.fail(
              new Conflict({
                detail: `A payment dated in the tax month ending ${drafted.periodEnd} was recorded while its return was being filed: look at the draft again, then file it.`
              })
            )
      })

    /**
     * The lines a return files, as typed or as the draft stands (each with its payments), and
     * whether it is nil: a drafted line's subcontractor HMRC wants verified again cannot be filed.
     */
    const linesToFile = (tenant: Tenant, input: NewMonthlyReturn) =>
      Effect.gen(function* () {
        if (input.fromPayments !== true) return { ...returnKind(input), draft: null }
        const drafted = yield* draftOf(tenant, input.periodEnd)
        const errors: Record<string, Array<string>> = {}
        drafted.warnings.forEach((warning) => {
          if (warning.code !== "VerifyAgain") return
          const i = drafted.lines.findIndex((line) => line.contactCode === warning.contactCode)
          ;(errors[memberPath(["lines", i, "contact"])] ??= []).push(warning.message)
        })
        yield* failIfAny(errors)
        const lines = drafted.lines.map((line) => ({
          contact: line.contactCode,
          grossAmount: line.grossAmount,
          materials: line.materials,
          deducted: line.deducted
        }))
        yield* failIfAny(returnShapeErrors({ nilReturn: drafted.nilReturn, inactive: input.inactive, lines }))
        return { nilReturn: drafted.nilReturn, inactive: input.inactive ?? false, lines, draft: drafted }
      })

    /**
     * Files a return: checked against the tenant's subcontractors as they are now, whose details
     * it copies, and against HMRC's schema, then queued to the tax authority (the return is its
     * own outbox entry). It carries the declarations the return needs, made by the current user
     * (or the API key it acts through), never on the contractor's behalf.
     */
    const file = (
      input: NewMonthlyReturn
    ): Effect.Effect<MonthlyReturn, NotFound | ValidationFailed | Refused | Conflict, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        yield* failIfAny(returnShapeErrors(input))
        // A typed return's kind is known now; one filed from payments is nil or not as its draft is.
        if (input.fromPayments !== true)
          yield* failIfAny(declarationErrors(returnKind(input).nilReturn, input.declarations))
        const principal = yield* CurrentUser
        const { tenant } = yield* CurrentTenant
        const now = yield* startedMonth(input.periodEnd)
        const identity = contractorIdentity(tenant, Option.getOrUndefined(yield* settings.getCisDetails(tenant.id)))
        if (!(identity instanceof ReturnContractor))
          return yield* new Refused({
            detail: `The tenant's own CIS details are incomplete (${identity.join(", ")}): the contractor's identity goes on the return. Complete the tenant's CIS details first.`,
            remedy: { _tag: "CompleteCisDetails", tenant: tenant.code }
          })
        const scheme = yield* settings.getCisScheme(tenant.id)
        if (Option.isNone(scheme)) return yield* schemeRequired
        if (Option.isNone(yield* credentials.find(tenant.id))) return yield* credentialsRequired
        const contractor = new ReturnContractor({ ...identity, scheme: scheme.value })
        const id = MonthlyReturnId.make(yield* ids.uuid)
        const { draft: drafted, inactive, lines: newLines, nilReturn } = yield* linesToFile(tenant, input)
        if (drafted !== null) yield* failIfAny(declarationErrors(nilReturn, input.declarations))
        const codes = newLines.map((line) => line.contact.toUpperCase())
        const found = yield* contacts.findByCodes(tenant.id, codes)
        const byCode = new Map(found.map((contact) => [contact.code, contact]))
        yield* failIfAny(lineErrors(newLines, byCode, drafted === null))
        const lines = newLines.map((line, i) => {
          const contact = byCode.get(line.contact.toUpperCase())!
          return new ReturnLine({
            contactId: contact.id,
            contactCode: contact.code,
            name: contact.name,
            utr: contact.cisDetails?.utr ?? null,
            verificationNumber: contact.verification?.verificationNumber ?? null,
            taxTreatment: contact.verification!.taxTreatment!,
            grossAmount: line.grossAmount,
            materials: line.materials,
            deducted: line.deducted,
            cisDetails: contact.cisDetails,
            payments: drafted?.lines[i]?.payments.map((p) => p.payment) ?? []
          })
        })
        const monthlyReturn = new MonthlyReturn({
          id,
          tenantId: tenant.id,
          periodEnd: input.periodEnd,
          status: "Submitted",
          contractor,
          lines,
          nilReturn,
          inactive,
          declarations: declared(input.declarations ?? {}, principal, now),
          submittedAt: now,
          acceptedAt: null,
          rejectionReason: null,
          invoiced: false
        })
        // The return as HMRC would receive it, checked against HMRC's schema once, before it is
        // queued (and outside the transaction: no connection is held while it is validated).
        yield* failIfAny(returnFilingErrors(yield* filing.checkReturn(monthlyReturn)))
        return yield* transaction(
          // Held while the return goes in: a subcontractor's payment dated in the month waits, then sees it filed.
          repo.holdTaxMonth(tenant.id, input.periodEnd).pipe(
            Effect.zipRight(drafted === null ? Effect.void : sameDraft(tenant, drafted)),
            Effect.zipRight(repo.insert(monthlyReturn)),
            Effect.catchTag("DuplicateKey", () =>
              Effect.fail(
                new Conflict({
                  detail: `The tenant already has a return for the tax month ending ${input.periodEnd} that is submitted or accepted; only a rejected one can be filed again.`
                })
              )
            ),
            Effect.as(monthlyReturn)
          )
        )
      }).pipe(Effect.withSpan("MonthlyReturns.file"))

    const list = (): Effect.Effect<ReadonlyArray<MonthlyReturn>, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => repo.list(tenant.id)))

    const get = (id: string): Effect.Effect<MonthlyReturn, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const found = isUuid(id) ? yield* repo.find(tenant.id, MonthlyReturnId.make(id)) : Option.none()
        return yield* Option.match(found, {
          onNone: () => Effect.fail(new NotFound({ detail: `The tenant ${tenant.code} has no monthly return ${id}.` })),
          onSome: Effect.succeed
        })
      })

    /**
     * Sends again a return Held because HMRC's answer to it was unknown, once a person has
     * checked HMRC's online service (HMRC has not filed it): Submitted, due at once, to be sent
     * afresh. Any other return is refused, saying what it is.
     */
    const release = (id: string): Effect.Effect<MonthlyReturn, NotFound | Refused, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const found = yield* get(id)
        const notSoHeld = () =>
          new Refused({
            detail:
              found.status === "Held"
                ? `The return ${found.id} is held because of the tenant's HMRC credentials, not because HMRC's answer is unknown: it is sent again by itself once they are replaced or the CIS scheme registration is corrected.`
                : `The return ${found.id} is ${found.status}, not held because HMRC's answer is unknown: only such a return is released.`
          })
        if (found.heldFor !== "UnknownAnswer") return yield* notSoHeld()
        const now = yield* clock.now
        if (!(yield* transaction(repo.release(tenant.id, found.id, now)))) return yield* notSoHeld()
        return resubmitted(found, now)
      }).pipe(Effect.withSpan("MonthlyReturns.release"))

    return { file, draft, list, get, release } as const
  })
}) {}
