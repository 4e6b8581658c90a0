import { ApiKeyName } from "@cisbook/core/ApiKey"
import { Schema } from "effect"
import { requestBody } from "./RequestBody.js"

const apiKeyFields = {
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String.annotations({ description: "The key's first characters, to recognise it by" }),
  createdAt: Schema.Date,
  lastUsedAt: Schema.NullOr(Schema.Date)
}

export class ApiKeyDto extends Schema.Class<ApiKeyDto>("ApiKeyDto")(apiKeyFields) {}

export class CreatedApiKeyDto extends Schema.Class<CreatedApiKeyDto>("CreatedApiKeyDto")({
  ...apiKeyFields,
  key: Schema.String.annotations({ description: "The key itself. It is shown here once and never again." })
}) {}

export const CreateApiKeyRequest = requestBody("CreateApiKeyRequest", { name: ApiKeyName })
