import { Schema } from "effect"
import { TenantCode } from "./Tenant.js"

/** The caller is not a member of the tenant they named; each front end decides how much to tell them. */
export class NotAMember extends Schema.TaggedError<NotAMember>()("NotAMember", {
  tenantCode: TenantCode,
  detail: Schema.String
}) {}
