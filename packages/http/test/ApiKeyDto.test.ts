import { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { ApiKeyId, UserId } from "@cisbook/core/Ids"
import { ApiKeyDto } from "@cisbook/sdk/ApiKeyDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { apiKeyDto } from "../src/dto/ApiKeyDto.js"
import { withRealInstants } from "./RealInstants.js"

const encode = Schema.encodeSync(ApiKeyDto)

const validated = (key: ApiKey) =>
  ApiKeyDto.make({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt
  })

// The DTO is built without the constructor's validation: the endpoint's encoding still checks it.
describe("apiKeyDto", () => {
  it.prop("encodes as the validated DTO does, for any key", [withRealInstants(ApiKey)], ([key]) => {
    expect(encode(apiKeyDto(key))).toStrictEqual(encode(validated(key)))
  })

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    const key = new ApiKey({
      id: ApiKeyId.make("0197a3c4-0000-7000-8000-000000000001"),
      userId: UserId.make("0197a3c4-1111-7000-8000-000000000001"),
      name: "laptop",
      prefix: "cis_jUGw3k",
      createdAt: new Date("2026-11-29T10:00:00Z"),
      lastUsedAt: null
    })
    expect(encode(apiKeyDto(key))).toStrictEqual({
      id: "0197a3c4-0000-7000-8000-000000000001",
      name: "laptop",
      prefix: "cis_jUGw3k",
      createdAt: "2026-11-29T10:00:00.000Z",
      lastUsedAt: null
    })
    expect(() => encode(apiKeyDto(new ApiKey({ ...key, createdAt: new Date(Number.NaN) }, true)))).toThrow()
    expect(() => encode(apiKeyDto(new ApiKey({ ...key, name: 42 as unknown as string }, true)))).toThrow()
  })
})
