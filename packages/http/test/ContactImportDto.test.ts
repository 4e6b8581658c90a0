import { ContactImportResultDto } from "@cisbook/sdk/ContactImportDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { encodeContactImportResult } from "../src/dto/ContactImportDto.js"

const encode = Schema.encodeSync(ContactImportResultDto)

describe("encodeContactImportResult", () => {
  it.prop(
    "is what the ContactImportResultDto schema encodes to, for any result",
    [ContactImportResultDto],
    ([result]) => {
      expect(encodeContactImportResult(result)).toStrictEqual(encode(result))
    }
  )
})
