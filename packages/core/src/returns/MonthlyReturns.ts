import { Effect, Option } from "effect"
import { schemeRequired } from "../cis/SchemeRequired.js"
import { credentialsRequired } from "../credentials/CredentialsRequired.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { Conflict, NotFound, Refused, ValidationFailed } from "../Errors.js"
import { isUuid, MonthlyReturnId } from "../Ids.js"
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
import { taxMonthEndOf } from "./TaxMonth.js"
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
        const { inactive, lines: newLines, nilReturn } = returnKind(input)
        yield* failIfAny(declarationErrors(nilReturn, input.declarations))
        const principal = yield* CurrentUser
        const { tenant } = yield* CurrentTenant
        const now = yield* clock.now
        const currentEnd = taxMonthEndOf(ukCalendarDate(now))
        if (input.periodEnd > currentEnd)
          return yield* ValidationFailed.one(
            "periodEnd",
            `The tax month ending ${input.periodEnd} has not started yet: the current one ends on ${currentEnd}`
          )
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
        const codes = newLines.map((line) => line.contact.toUpperCase())
        const found = yield* contacts.findByCodes(tenant.id, codes)
        const byCode = new Map(found.map((contact) => [contact.code, contact]))
        yield* failIfAny(lineErrors(newLines, byCode))
        const lines = newLines.map((line) => {
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
            cisDetails: contact.cisDetails
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
          repo.insert(monthlyReturn).pipe(
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

    return { file, list, get, release } as const
  })
}) {}
