import type { Member } from "@cisbook/core/tenants/TenantRepo"
import type { TenantAccess } from "@cisbook/core/tenants/Tenant"
import { MemberDto, TenantDto } from "@cisbook/sdk/TenantDtos"

// Built without the constructors' validation, as a list's items are (the caller's tenants, a
// tenant's members): the members are the domain's, already valid, and the endpoint's schema checks
// them again as it encodes.

export const tenantDto = ({ role, tenant }: TenantAccess) =>
  new TenantDto({ code: tenant.code, name: tenant.name, email: tenant.email, role, createdAt: tenant.createdAt }, true)

export const memberDto = (member: Member) =>
  new MemberDto({ email: member.email, name: member.name, role: member.role, addedAt: member.addedAt }, true)
