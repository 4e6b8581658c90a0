import { EmailAddress } from "@cisbook/core/Email"
import { Role, TenantCodeFormat, TenantName } from "@cisbook/core/Tenant"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

export class TenantDto extends Schema.Class<TenantDto>("TenantDto")({
  code: Schema.String,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  role: Role.annotations({ description: "The caller's role in this tenant" }),
  createdAt: Schema.Date
}) {}

export const CreateTenantRequest = requestBody("CreateTenantRequest", {
  code: TenantCodeFormat,
  name: TenantName,
  email: optional(EmailAddress)
})

export class MemberDto extends Schema.Class<MemberDto>("MemberDto")({
  email: Schema.NullOr(Schema.String).annotations({
    description: "null for a member signed in without an email address"
  }),
  name: Schema.String,
  role: Role,
  addedAt: Schema.Date
}) {}

export const AddMemberRequest = requestBody("AddMemberRequest", {
  email: EmailAddress,
  role: Role
})
