import { Context, type Effect } from "effect"
import type { CisScheme } from "../cis/CisScheme.js"
import type { TenantId } from "../Ids.js"

/**
 * What correcting a tenant's CIS scheme registration sets going: HMRC refuses the credentials of
 * a Government Gateway account that is not enrolled for the employer reference a message names
 * (its 1046), so what was held for the tenant's credentials is sent again, under the corrected
 * scheme. Called inside the transaction that stores the new scheme, only when it differs from the
 * one it replaces.
 */
export class SchemeCorrections extends Context.Tag("core/SchemeCorrections")<
  SchemeCorrections,
  { readonly corrected: (tenantId: TenantId, scheme: CisScheme, at: Date) => Effect.Effect<void> }
>() {}
