import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Email } from "@cisbook/core/Email"
import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { asUser } from "@cisbook/core/users/ActingAs"
import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { Users } from "@cisbook/core/users/Users"
import { everyAccessDeclared, forTenantMembers, forUsers } from "@cisbook/sdk/Access"
import { tenantParam } from "@cisbook/sdk/TenantsApi"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { describe, expect, it } from "@effect/vitest"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiClient,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpClient,
  HttpClientRequest
} from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { AuthenticateLive } from "../src/middleware/AuthenticateLive.js"
import { TenantMemberLive } from "../src/middleware/TenantMemberLive.js"

/** Who a handler acts as, and for which tenant, as it reads them from its context. */
const Acting = Schema.Struct({
  userId: Schema.String,
  apiKeyId: Schema.NullOr(Schema.String),
  tenant: Schema.NullOr(Schema.String)
})

class ActingApi extends everyAccessDeclared(
  HttpApi.make("acting")
    .add(forUsers(HttpApiGroup.make("user").add(HttpApiEndpoint.get("asUser", "/me").addSuccess(Acting))))
    .add(
      forTenantMembers(
        HttpApiGroup.make("member").add(HttpApiEndpoint.get("asMember")`/tenants/${tenantParam}/me`.addSuccess(Acting))
      )
    )
) {}

const UserLive = HttpApiBuilder.group(ActingApi, "user", (handlers) =>
  handlers.handle("asUser", () =>
    Effect.map(CurrentUser, ({ apiKeyId, user }) => ({ userId: user.id, apiKeyId, tenant: null }))
  )
)

const MemberLive = HttpApiBuilder.group(ActingApi, "member", (handlers) =>
  handlers.handle("asMember", () =>
    Effect.map(Effect.all([CurrentUser, CurrentTenant]), ([{ apiKeyId, user }, { tenant }]) => ({
      userId: user.id,
      apiKeyId,
      tenant: tenant.code
    }))
  )
)

const app = HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(ActingApi)),
  Layer.provide([UserLive, MemberLive]),
  Layer.provide([AuthenticateLive, TenantMemberLive]),
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provideMerge(UseCasesLive),
  Layer.provide(RateLimitsOff),
  Layer.provide(MemoryPorts),
  Layer.provide(
    identityVerifierFake({
      "ada-token": { subject: "ada", email: "ada@example.com", emailVerified: true, name: "Ada" }
    })
  )
)

const clientWith = (header: string, value: string) =>
  HttpApiClient.make(ActingApi, { transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader(header, value)) })

describe("the access middlewares", () => {
  it.effect("provide the user and the API key a request came with, and the tenant for its member after them", () =>
    Effect.gen(function* () {
      const ada = yield* (yield* Users).create({ email: Email.make("ada@example.com"), name: "Ada" })
      const { apiKey, key } = yield* (yield* ApiKeys).issue("laptop").pipe(asUser(ada))
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("lovelace"), name: "Lovelace", email: null })
        .pipe(asUser(ada))
      const byKey = yield* clientWith("x-api-key", key)
      expect(yield* byKey.user.asUser()).toEqual({ userId: ada.id, apiKeyId: apiKey.id, tenant: null })
      expect(yield* byKey.member.asMember({ path: { tenant: "lovelace" } })).toEqual({
        userId: ada.id,
        apiKeyId: apiKey.id,
        tenant: "lovelace"
      })
    }).pipe(Effect.provide(app))
  )

  it.effect("provide a token's user with no API key, and refuse a tenant to a user who is not its member", () =>
    Effect.gen(function* () {
      const owner = yield* (yield* Users).create({ email: Email.make("owner@example.com"), name: "Owner" })
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("lovelace"), name: "Lovelace", email: null })
        .pipe(asUser(owner))
      const byToken = yield* clientWith("authorization", "Bearer ada-token")
      const ada = yield* byToken.user.asUser()
      expect(ada).toMatchObject({ apiKeyId: null, tenant: null })
      expect((yield* (yield* Users).byEmail(Email.make("ada@example.com"))).id).toBe(ada.userId)
      const refused = yield* Effect.flip(byToken.member.asMember({ path: { tenant: "lovelace" } }))
      expect(refused).toMatchObject({ _tag: "Forbidden", detail: "You are not a member of the tenant lovelace." })
    }).pipe(Effect.provide(app))
  )
})
