import { Schema } from "effect"
import { MonthlyReturnId, TenantId } from "../../Ids.js"

export class UsageSubcontractor extends Schema.Class<UsageSubcontractor>("UsageSubcontractor")({
  contactCode: Schema.String,
  name: Schema.String
}) {}

/** An accepted monthly return not invoiced yet, of a tenant the user owns: what the next billing run charges for. */
export class BillingUsage extends Schema.Class<BillingUsage>("BillingUsage")({
  returnId: MonthlyReturnId,
  tenantId: TenantId,
  /** The tenant's code. */
  tenant: Schema.String,
  tenantName: Schema.String,
  /** The tax month, by its last day: YYYY-MM-05. */
  periodEnd: Schema.String,
  acceptedAt: Schema.DateFromSelf,
  subcontractors: Schema.Array(UsageSubcontractor)
}) {}
