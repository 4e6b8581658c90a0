import { Email } from "@cisbook/core/Email"
import { TenantId, UserId } from "@cisbook/core/Ids"
import { Role, Tenant, TenantCode } from "@cisbook/core/tenants/Tenant"
import type { Member } from "@cisbook/core/tenants/TenantRepo"
import { MemberDto, TenantDto } from "@cisbook/sdk/TenantDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { memberDto, tenantDto } from "../src/dto/TenantDto.js"
import { withRealInstants } from "./RealInstants.js"

const encodeTenant = Schema.encodeSync(TenantDto)
const encodeMember = Schema.encodeSync(MemberDto)

/** A member as the tenant repository lists one (its instant a real date, as a stored one is). */
const MemberSchema = Schema.Struct({
  userId: UserId,
  email: Schema.NullOr(Email),
  name: Schema.String,
  role: Role,
  addedAt: Schema.ValidDateFromSelf
})

const tenant = new Tenant({
  id: TenantId.make("0197a3c4-2222-7000-8000-000000000001"),
  code: TenantCode.make("lovelace"),
  name: "Lovelace Builders Ltd",
  email: Email.make("office@lovelace.example"),
  createdAt: new Date("2026-11-29T10:00:00Z")
})

const member: Member = {
  userId: UserId.make("0197a3c4-1111-7000-8000-000000000001"),
  email: null,
  name: "Grace Hopper",
  role: "Member",
  addedAt: new Date("2026-11-29T11:00:00Z")
}

// The DTOs are built without the constructors' validation: the endpoint's encoding still checks them.
describe("tenantDto", () => {
  it.prop(
    "encodes as the validated DTO does, for any tenant and role",
    [withRealInstants(Tenant), Role],
    ([tenant, role]) => {
      const validated = TenantDto.make({
        code: tenant.code,
        name: tenant.name,
        email: tenant.email,
        role,
        createdAt: tenant.createdAt
      })
      expect(encodeTenant(tenantDto({ tenant, role }))).toStrictEqual(encodeTenant(validated))
    }
  )

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    expect(encodeTenant(tenantDto({ tenant, role: "Owner" }))).toStrictEqual({
      code: "lovelace",
      name: "Lovelace Builders Ltd",
      email: "office@lovelace.example",
      role: "Owner",
      createdAt: "2026-11-29T10:00:00.000Z"
    })
    expect(() => encodeTenant(tenantDto({ tenant, role: "Admin" as "Owner" }))).toThrow()
    expect(() =>
      encodeTenant(
        tenantDto({ tenant: new Tenant({ ...tenant, createdAt: new Date(Number.NaN) }, true), role: "Owner" })
      )
    ).toThrow()
  })
})

describe("memberDto", () => {
  it.prop("encodes as the validated DTO does, for any member", [MemberSchema], ([member]) => {
    const validated = MemberDto.make({
      email: member.email,
      name: member.name,
      role: member.role,
      addedAt: member.addedAt
    })
    expect(encodeMember(memberDto(member))).toStrictEqual(encodeMember(validated))
  })

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    expect(encodeMember(memberDto(member))).toStrictEqual({
      email: null,
      name: "Grace Hopper",
      role: "Member",
      addedAt: "2026-11-29T11:00:00.000Z"
    })
    expect(() => encodeMember(memberDto({ ...member, role: "Admin" as "Member" }))).toThrow()
    expect(() => encodeMember(memberDto({ ...member, name: null as unknown as string }))).toThrow()
  })
})
