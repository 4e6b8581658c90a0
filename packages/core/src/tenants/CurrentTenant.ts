import { Context } from "effect"
import type { TenantAccess } from "./Tenant.js"

/**
 * The tenant a request acts for, with the caller's role in it. Each front end finds it before a
 * use case runs: the API from the path, for a member only; the admin CLI for support staff,
 * who act on any tenant with an Owner's rights.
 */
export class CurrentTenant extends Context.Tag("core/CurrentTenant")<CurrentTenant, TenantAccess>() {}
