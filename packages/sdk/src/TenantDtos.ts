import { EmailAddress } from "@cisbook/core/Email"
import { Role, TenantCodeFormat, TenantName } from "@cisbook/core/tenants/Tenant"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

export class TenantDto extends Schema.Class<TenantDto>("TenantDto")({
  code: Schema.String.annotations({ examples: ["lovelace-builders"] }),
  name: Schema.String.annotations({ examples: ["Lovelace Builders Ltd"] }),
  email: Schema.NullOr(Schema.String).annotations({ examples: ["accounts@lovelace-builders.example"] }),
  role: Role.annotations({ description: "The caller's role in this tenant" }),
  createdAt: Schema.Date
}) {}

export const CreateTenantRequest = requestBody("CreateTenantRequest", {
  code: TenantCodeFormat,
  name: TenantName,
  email: optional(EmailAddress)
}).annotations({
  examples: [{ code: "lovelace-builders", name: "Lovelace Builders Ltd", email: "accounts@lovelace-builders.example" }]
})

export class MemberDto extends Schema.Class<MemberDto>("MemberDto")({
  email: Schema.NullOr(Schema.String).annotations({
    description: "null for a member signed in without an email address",
    examples: ["grace@lovelace-builders.example"]
  }),
  name: Schema.String.annotations({ examples: ["Grace Hopper"] }),
  role: Role,
  addedAt: Schema.Date
}) {}

export const AddMemberRequest = requestBody("AddMemberRequest", {
  email: EmailAddress,
  role: Role
}).annotations({ examples: [{ email: "grace@lovelace-builders.example", role: "Member" }] })
