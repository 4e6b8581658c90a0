import type { Member } from "@cisbook/core/tenants/TenantRepo"
import type { TenantAccess } from "@cisbook/core/tenants/Tenant"
import { MemberDto, TenantDto } from "@cisbook/sdk/TenantDtos"

export const tenantDto = ({ role, tenant }: TenantAccess) =>
  new TenantDto({ code: tenant.code, name: tenant.name, email: tenant.email, role, createdAt: tenant.createdAt })

export const memberDto = (member: Member) =>
  new MemberDto({ email: member.email, name: member.name, role: member.role, addedAt: member.addedAt })
