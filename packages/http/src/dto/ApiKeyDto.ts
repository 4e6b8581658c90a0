import type { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { ApiKeyDto, CreatedApiKeyDto } from "@cisbook/sdk/ApiKeyDtos"

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
