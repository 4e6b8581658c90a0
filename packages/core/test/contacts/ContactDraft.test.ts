import { describe, expect, it } from "@effect/vitest"
import { Equal, Schema } from "effect"
import { Contact, SupplierSettings } from "../../src/contacts/Contact.js"
import { creationEventJson, creationEvents, draftContact } from "../../src/contacts/ContactDraft.js"
import { contactEventJson } from "../../src/contacts/ContactEventData.js"
import { eventJsonText } from "../../src/events/EventJson.js"
import { trustedInstance } from "../../src/TrustedInstance.js"
import type { ContactId, TenantId } from "../../src/Ids.js"

const fields = {
  id: "0b7e4d0e-8a1c-4f7e-9d35-1f5c8e2b6a10" as ContactId,
  tenantId: "5c1d6c1e-2b4a-4a8e-8f0d-9b7c3e1a2d40" as TenantId,
  now: new Date("2026-11-21T10:15:00.000Z")
}

const encode = Schema.encodeSync(Contact)

const inputs = [
  [
    "a subcontractor with its settings",
    {
      name: "John Smith Groundworks",
      email: "john@smith-groundworks.example",
      isSupplier: true,
      isCisSubcontractor: true,
      vatRegistered: true,
      vatNumber: "GB123456789",
      cisDetails: {
        type: "SoleTrader" as const,
        title: null,
        firstName: "John",
        secondName: null,
        lastName: "Smith",
        tradingName: null,
        utr: "2234567890",
        niNumber: null,
        companyNumber: null,
        partnerUtr: null
      },
      supplierSettings: { defaultVatRate: "Standard" as const, paymentTermsDays: 30 }
    }
  ],
  ["a customer with nothing else", { name: "Acme Ltd", isCustomer: true }]
] as const

describe("draftContact", () => {
  it.each(inputs)("builds what the class's constructor builds from the same members: %s", (_, input) => {
    const draft = draftContact(input, fields)
    const constructed = new Contact({
      ...draft,
      supplierSettings: draft.supplierSettings && new SupplierSettings({ ...draft.supplierSettings })
    })
    expect(Object.getPrototypeOf(draft)).toBe(Contact.prototype)
    expect(Object.keys(draft)).toStrictEqual(Object.keys(constructed))
    expect(Equal.equals(draft, constructed)).toBe(true)
    expect(Schema.is(Contact)(draft)).toBe(true)
    expect(encode(draft)).toStrictEqual(encode(constructed))
    if (draft.supplierSettings !== null) expect(draft.supplierSettings).toBeInstanceOf(SupplierSettings)
  })
})

describe("creationEventJson", () => {
  it.each(inputs)("is the JSON of the coded contact's event data, whatever its code: %s", (_, input) => {
    const draft = draftContact(input, fields)
    const eventJson = creationEventJson(draft)
    for (const code of ["SMITHJ", "SMITHJ12", "", 'A"B\\C']) {
      const coded = trustedInstance(Contact, { ...draft, code })
      const text = eventJsonText(eventJson(code))
      expect(text).toBe(JSON.stringify(contactEventJson(coded)))
      expect(JSON.parse(text)).toStrictEqual(JSON.parse(eventJsonText(creationEvents(coded)[0]!.data)))
    }
  })
})
