import { Context, type Effect } from "effect"
import type { TenantId } from "../Ids.js"

/**
 * What new credentials set going: everything of the tenant held because HMRC refused the old
 * ones, sent again. Called inside the transaction that stores the new credentials.
 */
export class HeldForCredentials extends Context.Tag("core/HeldForCredentials")<
  HeldForCredentials,
  { readonly release: (tenantId: TenantId, at: Date) => Effect.Effect<void> }
>() {}
