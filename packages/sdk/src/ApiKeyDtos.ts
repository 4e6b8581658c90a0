import { ApiKeyName } from "@cisbook/core/apikeys/ApiKey"
import { Schema } from "effect"
import { requestBody } from "./RequestBody.js"

const apiKeyFields = {
  id: Schema.String.annotations({ examples: ["0196a5f2-52c1-7c3a-9d1e-8f27c1b6a002"] }),
  name: Schema.String.annotations({ examples: ["laptop"] }),
  prefix: Schema.String.annotations({
    description: "The key's first characters, to recognise it by",
    examples: ["cis_jUGw3k"]
  }),
  createdAt: Schema.Date,
  lastUsedAt: Schema.NullOr(Schema.Date)
}

export class ApiKeyDto extends Schema.Class<ApiKeyDto>("ApiKeyDto")(apiKeyFields) {}

export class CreatedApiKeyDto extends Schema.Class<CreatedApiKeyDto>("CreatedApiKeyDto")({
  ...apiKeyFields,
  key: Schema.String.annotations({
    description: "The key itself. It is shown here once and never again.",
    examples: ["cis_jUGw3kQ9xV2mT7pLr8sN4aZb6cYd1eFhK5gH0iJ2lMn"]
  })
}) {}

export const CreateApiKeyRequest = requestBody("CreateApiKeyRequest", { name: ApiKeyName }).annotations({
  examples: [{ name: "laptop" }]
})
