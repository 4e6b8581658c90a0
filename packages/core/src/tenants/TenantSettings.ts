import { Effect, Option } from "effect"
import { CisDetails, type CisDetailsEncoded } from "../cis/CisDetails.js"
import { CisScheme } from "../cis/CisScheme.js"
import { type SchemeRegistration, SchemeRegistrationInput } from "../cis/SchemeRegistration.js"
import { ukCalendarDate } from "../CalendarDate.js"
import { inHmrcNameForms } from "../cis/HmrcNames.js"
import type { NotFound, ValidationFailed } from "../Errors.js"
import { CurrentTenant } from "./CurrentTenant.js"
import type { Tenant } from "./Tenant.js"
import { Clock } from "../system/Clock.js"
import { Transactor } from "../system/Transactor.js"
import { SchemeCorrections } from "./SchemeCorrections.js"
import { TenantSettingsRepo } from "./TenantSettingsRepo.js"
import { decodeInput } from "../Validation.js"

const decodeCisDetails = decodeInput(inHmrcNameForms(CisDetails))
const decodeRegistration = decodeInput(SchemeRegistrationInput)

export class TenantSettings extends Effect.Service<TenantSettings>()("core/TenantSettings", {
  effect: Effect.gen(function* () {
    const repo = yield* TenantSettingsRepo
    const corrections = yield* SchemeCorrections
    const { transaction } = yield* Transactor
    const clock = yield* Clock

    /** The tenant's own CIS identity; none until first set. */
    const cisDetails = (): Effect.Effect<Option.Option<CisDetails>, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => repo.getCisDetails(tenant.id)))

    /** Replaces the tenant's CIS identity; the stored, normalised details. */
    const setCisDetails = (
      input: CisDetailsEncoded
    ): Effect.Effect<CisDetails, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const details = yield* decodeCisDetails(input)
        yield* repo.setCisDetails(tenant.id, details)
        return details
      }).pipe(Effect.withSpan("TenantSettings.setCisDetails"))

    const registrationOf = (tenant: Tenant): Effect.Effect<Option.Option<SchemeRegistration>> =>
      Effect.all({ scheme: repo.getCisScheme(tenant.id), registeredFrom: repo.getRegisteredFrom(tenant.id) }).pipe(
        Effect.map(Option.all)
      )

    /**
     * The PAYE scheme the tenant files returns and verifies subcontractors under, and since when
     * it is registered; none until first set.
     */
    const cisScheme = (): Effect.Effect<Option.Option<SchemeRegistration>, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => registrationOf(tenant)))

    /**
     * Replaces the tenant's CIS scheme registration; the stored references (upper case, no
     * spaces) and registration date: the one given, else the one recorded, else today's (the
     * registration is first set now). One that corrects another (either reference changed) sends
     * again, in the same transaction, what was held for the tenant's credentials (SchemeCorrections).
     */
    const setCisScheme = (
      input: SchemeRegistrationInput
    ): Effect.Effect<SchemeRegistration, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { registeredFrom: given, ...references } = yield* decodeRegistration(input)
        const scheme = new CisScheme(references)
        const now = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const before = yield* repo.getCisScheme(tenant.id)
            const registeredFrom =
              given ?? Option.getOrElse(yield* repo.getRegisteredFrom(tenant.id), () => ukCalendarDate(now))
            yield* repo.setCisScheme(tenant.id, scheme, registeredFrom)
            const corrected = Option.exists(
              before,
              (b) =>
                b.employerReference !== scheme.employerReference ||
                b.accountsOfficeReference !== scheme.accountsOfficeReference
            )
            if (corrected) yield* corrections.corrected(tenant.id, scheme, now)
            return { scheme, registeredFrom }
          })
        )
      }).pipe(Effect.withSpan("TenantSettings.setCisScheme"))

    return { cisDetails, setCisDetails, cisScheme, setCisScheme } as const
  })
}) {}
