import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { ContactDto, contactDtoJson } from "../../src/contacts/ContactView.js"

const encode = Schema.encodeSync(ContactDto)

describe("contactDtoJson", () => {
  it.prop("is what the ContactDto schema encodes to, for any contact", [ContactDto], ([dto]) => {
    expect(contactDtoJson(dto)).toStrictEqual(encode(dto))
  })

  it("writes instants as ISO 8601 in UTC", () => {
    const [example] = ContactDto.ast.annotations[Symbol.for("effect/annotation/Examples")] as ReadonlyArray<ContactDto>
    const json = contactDtoJson({
      ...example!,
      verification: { ...example!.verification!, verifiedAt: new Date(Date.UTC(2026, 10, 21, 9, 30)) }
    })
    expect(json.createdAt).toBe("2026-11-21T10:15:00.000Z")
    expect(json.verification?.verifiedAt).toBe("2026-11-21T09:30:00.000Z")
  })
})
