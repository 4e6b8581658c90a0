import { Effect, Option } from "effect"
import { type Forbidden, Forbidden as ForbiddenError, type ValidationFailed } from "../Errors.js"
import type { TenantId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { Transactor } from "../system/Transactor.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import type { Tenant } from "../tenants/Tenant.js"
import { decodeInput } from "../Validation.js"
import { credentialsSummary, type HmrcCredentialsSummary, SenderCredentials } from "./HmrcCredentials.js"
import { HeldForCredentials } from "./HeldForCredentials.js"
import { HmrcCredentialsRepo } from "./HmrcCredentialsRepo.js"

const decodeCredentials = decodeInput(SenderCredentials)

/**
 * A tenant's Government Gateway credentials, which its returns and verifications are sent to HMRC
 * with: seen and changed by its Owners only, never shown with the password. Replacing them sends
 * again, from the same transaction, everything held for the tenant because HMRC refused the old ones.
 */
export class HmrcCredentialsSettings extends Effect.Service<HmrcCredentialsSettings>()("core/HmrcCredentialsSettings", {
  effect: Effect.gen(function* () {
    const repo = yield* HmrcCredentialsRepo
    const held = yield* HeldForCredentials
    const { transaction } = yield* Transactor
    const clock = yield* Clock

    const ownerOf = (): Effect.Effect<Tenant, Forbidden, CurrentTenant> =>
      Effect.flatMap(CurrentTenant, ({ role, tenant }) =>
        role === "Owner"
          ? Effect.succeed(tenant)
          : Effect.fail(
              new ForbiddenError({ detail: `Only an Owner of ${tenant.code} can see or change its HMRC credentials.` })
            )
      )

    const summaryOf = (tenantId: TenantId) => Effect.map(repo.find(tenantId), Option.map(credentialsSummary))

    /** Sets or replaces them and, in the same transaction, sends again whatever was held for the tenant. */
    const set = (input: unknown): Effect.Effect<HmrcCredentialsSummary, Forbidden | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const tenant = yield* ownerOf()
        const credentials = yield* decodeCredentials(input)
        const now = yield* clock.now
        yield* transaction(
          Effect.gen(function* () {
            yield* repo.set(tenant.id, credentials, now)
            yield* held.release(tenant.id, now)
          })
        )
        return {
          gatewayUserId: credentials.gatewayUserId,
          filer: credentials.filer,
          status: "Unchecked" as const,
          updatedAt: now
        }
      }).pipe(Effect.withSpan("HmrcCredentialsSettings.set"))

    /** The tenant's credentials without the password; none until set. */
    const get = (): Effect.Effect<Option.Option<HmrcCredentialsSummary>, Forbidden, CurrentTenant> =>
      Effect.flatMap(ownerOf(), (tenant) => summaryOf(tenant.id))

    /** Removes them: nothing more of the tenant is sent to HMRC until new ones are set. */
    const remove = (): Effect.Effect<void, Forbidden, CurrentTenant> =>
      Effect.flatMap(ownerOf(), (tenant) => Effect.asVoid(transaction(repo.remove(tenant.id)))).pipe(
        Effect.withSpan("HmrcCredentialsSettings.remove")
      )

    /** Re-encrypts every tenant's stored password under the current key (after a key rotation); how many. */
    const reseal = (): Effect.Effect<number> => repo.reseal()

    return { get, set, remove, reseal } as const
  })
}) {}
