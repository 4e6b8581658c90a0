import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApiKeyDto, CreateApiKeyRequest, CreatedApiKeyDto } from "./ApiKeyDtos.js"
import { Authenticate } from "./Authenticate.js"
import { NotFoundProblem, ValidationProblem } from "./Problem.js"
import { TenantDto } from "./TenantDtos.js"
import { MeDto } from "./UserDtos.js"

const apiKeyId = HttpApiSchema.param("apiKey", Schema.String)

export class MeApi extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("getMe", "/me").addSuccess(MeDto).annotate(OpenApi.Summary, "The calling user"))
  .add(
    HttpApiEndpoint.get("listMyTenants", "/me/tenants")
      .addSuccess(Schema.Array(TenantDto))
      .annotate(OpenApi.Summary, "Tenants the caller is a member of, by code")
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/me/api-keys")
      .setPayload(CreateApiKeyRequest)
      .addSuccess(CreatedApiKeyDto, { status: 201 })
      .addError(ValidationProblem)
      .annotate(OpenApi.Summary, "Create an API key; the key is returned once")
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/me/api-keys")
      .addSuccess(Schema.Array(ApiKeyDto))
      .annotate(OpenApi.Summary, "The caller's live API keys, newest first")
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey")`/me/api-keys/${apiKeyId}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Revoke one of the caller's API keys")
  )
  .middleware(Authenticate)
  .annotate(OpenApi.Title, "Me") {}
