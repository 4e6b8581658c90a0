import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApiKeyDto, CreateApiKeyRequest, CreatedApiKeyDto } from "./ApiKeyDtos.js"
import { ConflictProblem, NotFoundProblem, ValidationProblem } from "./Problem.js"
import { TenantDto } from "./TenantDtos.js"
import { MeDto } from "./UserDtos.js"
import { forUsers } from "./Access.js"

const apiKeyId = HttpApiSchema.param("apiKey", Schema.String)

export class MeApi extends HttpApiGroup.make("me")
  .add(
    HttpApiEndpoint.get("getMe", "/me")
      .addSuccess(MeDto)
      .annotate(OpenApi.Summary, "The calling user")
      .annotate(OpenApi.Description, "The user the API key or bearer token belongs to.")
  )
  .add(
    HttpApiEndpoint.get("listMyTenants", "/me/tenants")
      .addSuccess(Schema.Array(TenantDto))
      .annotate(OpenApi.Summary, "Tenants the caller is a member of, by code")
      .annotate(
        OpenApi.Description,
        "Every tenant the caller belongs to, with the caller's role in it, ordered by tenant code."
      )
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/me/api-keys")
      .setPayload(CreateApiKeyRequest)
      .addSuccess(CreatedApiKeyDto, { status: 201 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .annotate(OpenApi.Summary, "Create an API key; the key is returned once")
      .annotate(
        OpenApi.Description,
        "The answer carries the key itself (cis_...) this once; only its hash is stored. Send it as the x-api-key header."
      )
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/me/api-keys")
      .addSuccess(Schema.Array(ApiKeyDto))
      .annotate(OpenApi.Summary, "The caller's live API keys, newest first")
      .annotate(
        OpenApi.Description,
        "Each key's id, name, prefix (its first characters), creation and last use; never the key itself."
      )
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey")`/me/api-keys/${apiKeyId}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Revoke one of the caller's API keys")
      .annotate(
        OpenApi.Description,
        "The key stops working at once on every server process (on a process that has lost its database notifications for a moment, within AUTH_CACHE_SECONDS). 404 for a key that is not the caller's."
      )
  )
  .annotate(OpenApi.Title, "Me")
  .annotate(OpenApi.Description, "The calling user, their tenants and their API keys.")
  .pipe(forUsers) {}
