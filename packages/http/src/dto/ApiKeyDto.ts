import type { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { ApiKeyDto, CreatedApiKeyDto } from "@cisbook/sdk/ApiKeyDtos"

const apiKeyFields = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt
})

/**
 * A key as its list shows it. Built without the constructor's validation, as a list's items are
 * (the members are the domain's, already valid, and the endpoint's schema checks them again as it
 * encodes).
 */
export const apiKeyDto = (key: ApiKey) => new ApiKeyDto(apiKeyFields(key), true)

export const createdApiKeyDto = (created: { readonly apiKey: ApiKey; readonly key: string }) =>
  new CreatedApiKeyDto({ ...apiKeyFields(created.apiKey), key: created.key })
