import { Schema } from "effect"
import { Email } from "../Email.js"
import { TenantId, UserId } from "../Ids.js"

/** A tenant's URL stub as it comes over the wire. */
export const TenantCodeFormat = Schema.String.pipe(
  Schema.filter(
    (s) =>
      /^[a-z][a-z0-9-]{2,39}$/.test(s) ||
      "Must be 3 to 40 characters of a-z, 0-9 and -, starting with a letter (for example acme-builders)"
  ),
  Schema.annotations({ title: "TenantCode", examples: ["acme-builders"] })
)

export const TenantCode = TenantCodeFormat.pipe(Schema.brand("TenantCode"))
export type TenantCode = typeof TenantCode.Type

export const TenantName = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "A name is required" }),
  Schema.maxLength(200, { message: () => "A name has at most 200 characters" })
)

export const Role = Schema.Literal("Owner", "Member")
export type Role = typeof Role.Type

export class Tenant extends Schema.Class<Tenant>("Tenant")({
  id: TenantId,
  code: TenantCode,
  name: Schema.String,
  email: Schema.NullOr(Email),
  createdAt: Schema.DateFromSelf
}) {}

export class Membership extends Schema.Class<Membership>("Membership")({
  tenantId: TenantId,
  userId: UserId,
  role: Role,
  addedAt: Schema.DateFromSelf
}) {}

/** A tenant as one of its members sees it. */
export interface TenantAccess {
  readonly tenant: Tenant
  readonly role: Role
}
