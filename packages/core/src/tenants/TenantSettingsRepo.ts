import { Context, type Effect, type Option } from "effect"
import type { CisDetails } from "../cis/CisDetails.js"
import type { CisScheme } from "../cis/CisScheme.js"
import type { TenantId } from "../Ids.js"

/**
 * A tenant's settings, one accessor pair per setting: each is stored and replaced on its own,
 * so adding a setting leaves the others alone.
 */
export class TenantSettingsRepo extends Context.Tag("core/TenantSettingsRepo")<
  TenantSettingsRepo,
  {
    /** None until they are first set. */
    readonly getCisDetails: (tenantId: TenantId) => Effect.Effect<Option.Option<CisDetails>>
    readonly setCisDetails: (tenantId: TenantId, details: CisDetails) => Effect.Effect<void>
    /** The PAYE scheme the tenant files under; none until first set. */
    readonly getCisScheme: (tenantId: TenantId) => Effect.Effect<Option.Option<CisScheme>>
    /** Sets the scheme, and the date (YYYY-MM-DD) the contractor's CIS registration with HMRC began. */
    readonly setCisScheme: (tenantId: TenantId, scheme: CisScheme, registeredFrom: string) => Effect.Effect<void>
    /** The date the contractor's CIS registration began; none until the scheme is first set. */
    readonly getRegisteredFrom: (tenantId: TenantId) => Effect.Effect<Option.Option<string>>
  }
>() {}
