import { describe, expect, it } from "@effect/vitest"
import { Equal, Schema } from "effect"
import { CisDetails } from "../src/cis/CisDetails.js"
import type { Utr } from "../src/cis/Utr.js"
import { Contact, SupplierSettings, Verification } from "../src/contacts/Contact.js"
import type { Email } from "../src/Email.js"
import type { ContactId, TenantId } from "../src/Ids.js"
import { trustedInstance } from "../src/TrustedInstance.js"

/** A contact rebuilt member by member, every class in it by trustedInstance, as rows are read back. */
const rebuilt = (contact: Contact): Contact =>
  trustedInstance(Contact, {
    ...contact,
    cisDetails: contact.cisDetails && trustedInstance(CisDetails, { ...contact.cisDetails }),
    verification: contact.verification && trustedInstance(Verification, { ...contact.verification }),
    supplierSettings: contact.supplierSettings && trustedInstance(SupplierSettings, { ...contact.supplierSettings })
  })

const encode = Schema.encodeSync(Contact)

const at = new Date("2026-11-21T10:15:00.000Z")

const subcontractor = new Contact({
  id: "0b7e4d0e-8a1c-4f7e-9d35-1f5c8e2b6a10" as ContactId,
  tenantId: "5c1d6c1e-2b4a-4a8e-8f0d-9b7c3e1a2d40" as TenantId,
  code: "SMITHJ",
  name: "John Smith Groundworks",
  email: "john@smith-groundworks.example" as Email,
  externalId: "X-17",
  isCustomer: false,
  isSupplier: true,
  isCisSubcontractor: true,
  vatRegistered: true,
  vatNumber: "GB123456789",
  lastSdcDate: "2026-10-31",
  cisDetails: new CisDetails({ type: "SoleTrader", firstName: "John", lastName: "Smith", utr: "2234567890" as Utr }),
  verification: new Verification({
    status: "Verified",
    verificationNumber: "V1234567890",
    taxTreatment: "Net",
    verifiedAt: at,
    source: "Manual",
    message: null
  }),
  supplierSettings: new SupplierSettings({ defaultVatRate: "Standard", paymentTermsDays: 30 }),
  createdAt: at,
  updatedAt: at
})

const customer = new Contact({
  ...subcontractor,
  code: "ACME",
  isSupplier: false,
  isCisSubcontractor: false,
  isCustomer: true,
  cisDetails: null,
  verification: null,
  supplierSettings: null
})

describe("trustedInstance", () => {
  it.each([
    ["a subcontractor, with every class inside", subcontractor],
    ["a customer, with none", customer]
  ])("builds what the class's constructor builds from the same complete members: %s", (_, contact) => {
    const trusted = rebuilt(contact)
    expect(Object.getPrototypeOf(trusted)).toBe(Contact.prototype)
    expect(trusted).toBeInstanceOf(Contact)
    expect(Object.keys(trusted)).toStrictEqual(Object.keys(contact))
    expect(Equal.equals(trusted, contact)).toBe(true)
    expect(Schema.is(Contact)(trusted)).toBe(true)
    expect(encode(trusted)).toStrictEqual(encode(contact))
  })

  it("keeps members as given: nothing is validated", () => {
    const settings = trustedInstance(SupplierSettings, { defaultVatRate: "Standard", paymentTermsDays: 1.5 })
    expect(settings.paymentTermsDays).toBe(1.5)
    expect(() => new SupplierSettings({ defaultVatRate: "Standard", paymentTermsDays: 1.5 })).toThrow()
  })
})
