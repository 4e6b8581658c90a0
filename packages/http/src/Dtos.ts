import type { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import type { Member } from "@cisbook/core/tenants/TenantRepo"
import type { TenantAccess } from "@cisbook/core/tenants/Tenant"
import type { User } from "@cisbook/core/users/User"
import { ApiKeyDto, CreatedApiKeyDto } from "@cisbook/sdk/ApiKeyDtos"
import { MemberDto, TenantDto } from "@cisbook/sdk/TenantDtos"
import { MeDto } from "@cisbook/sdk/UserDtos"

export const meDto = (user: User) => new MeDto({ id: user.id, email: user.email, name: user.name })

export const tenantDto = ({ role, tenant }: TenantAccess) =>
  new TenantDto({ code: tenant.code, name: tenant.name, email: tenant.email, role, createdAt: tenant.createdAt })

export const memberDto = (member: Member) =>
  new MemberDto({ email: member.email, name: member.name, role: member.role, addedAt: member.addedAt })

const apiKeyFields = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt
})

export const apiKeyDto = (key: ApiKey) => new ApiKeyDto(apiKeyFields(key))

export const createdApiKeyDto = (created: { readonly apiKey: ApiKey; readonly key: string }) =>
  new CreatedApiKeyDto({ ...apiKeyFields(created.apiKey), key: created.key })
