import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { ContactEventData, encodeContactEventData } from "../../src/contacts/ContactEventData.js"

const encode = Schema.encodeSync(ContactEventData)

describe("encodeContactEventData", () => {
  it.prop("is what the ContactEventData schema encodes to, for any contact", [ContactEventData], ([data]) => {
    expect(encodeContactEventData(data)).toStrictEqual(encode(data))
  })

  it("writes instants as ISO 8601 in UTC", () => {
    const [example] = ContactEventData.ast.annotations[Symbol.for("effect/annotation/Examples")] as ReadonlyArray<
      typeof ContactEventData.Type
    >
    const json = encodeContactEventData({
      ...example!,
      verification: { ...example!.verification!, verifiedAt: new Date(Date.UTC(2026, 10, 21, 9, 30)) }
    })
    expect(json.createdAt).toBe("2026-11-21T10:15:00.000Z")
    expect(json.verification?.verifiedAt).toBe("2026-11-21T09:30:00.000Z")
  })
})
