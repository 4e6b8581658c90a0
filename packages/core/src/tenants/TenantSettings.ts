import { Effect, Option } from "effect"
import { CisDetails, type CisDetailsEncoded } from "../cis/CisDetails.js"
import { CisScheme } from "../cis/CisScheme.js"
import { inHmrcNameForms } from "../cis/HmrcNames.js"
import type { NotFound, ValidationFailed } from "../Errors.js"
import { CurrentTenant } from "./CurrentTenant.js"
import { Clock } from "../system/Clock.js"
import { Transactor } from "../system/Transactor.js"
import { SchemeCorrections } from "./SchemeCorrections.js"
import { TenantSettingsRepo } from "./TenantSettingsRepo.js"
import { decodeInput } from "../Validation.js"

const decodeCisDetails = decodeInput(inHmrcNameForms(CisDetails))
const decodeCisScheme = decodeInput(CisScheme)

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

    /** The PAYE scheme the tenant files returns and verifies subcontractors under; none until first set. */
    const cisScheme = (): Effect.Effect<Option.Option<CisScheme>, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => repo.getCisScheme(tenant.id)))

    /**
     * Replaces the tenant's CIS scheme registration; the stored references (upper case, no
     * spaces). One that corrects another (either reference changed) sends again, in the same
     * transaction, what was held for the tenant's credentials (SchemeCorrections).
     */
    const setCisScheme = (
      input: typeof CisScheme.Encoded
    ): Effect.Effect<CisScheme, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const scheme = yield* decodeCisScheme(input)
        const now = yield* clock.now
        yield* transaction(
          Effect.gen(function* () {
            const before = yield* repo.getCisScheme(tenant.id)
            yield* repo.setCisScheme(tenant.id, scheme)
            const corrected = Option.exists(
              before,
              (b) =>
                b.employerReference !== scheme.employerReference ||
                b.accountsOfficeReference !== scheme.accountsOfficeReference
            )
            if (corrected) yield* corrections.corrected(tenant.id, scheme, now)
          })
        )
        return scheme
      }).pipe(Effect.withSpan("TenantSettings.setCisScheme"))

    return { cisDetails, setCisDetails, cisScheme, setCisScheme } as const
  })
}) {}
