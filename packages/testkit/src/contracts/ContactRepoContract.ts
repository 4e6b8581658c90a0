import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { Contact, SupplierSettings, Verification, notVerified } from "@cisbook/core/contacts/Contact"
import type { ContactQuery } from "@cisbook/core/contacts/ContactQuery"
import { Email } from "@cisbook/core/Email"
import { ContactId } from "@cisbook/core/Ids"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { Transactor } from "@cisbook/core/system/Transactor"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { expect } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

type ContactFields = Omit<ConstructorParameters<typeof Contact>[0], "id" | "tenantId">

export const identity = (fields: Record<string, string>) =>
  Schema.decodeUnknownSync(CisDetails)({ type: "SoleTrader", ...fields })

export const newContact = (tenant: Tenant, fields: Partial<ContactFields> & Pick<ContactFields, "code">) =>
  Effect.map(
    fresh,
    ({ id }) =>
      new Contact({
        id: ContactId.make(id),
        tenantId: tenant.id,
        name: `Contact ${fields.code}`,
        email: null,
        externalId: null,
        isCustomer: false,
        isSupplier: false,
        isCisSubcontractor: false,
        vatRegistered: false,
        vatNumber: null,
        lastSdcDate: null,
        cisDetails: null,
        verification: null,
        supplierSettings: null,
        createdAt: at(0),
        updatedAt: at(0),
        ...fields
      })
  )

export const inserted = (tenant: Tenant, fields: Partial<ContactFields> & Pick<ContactFields, "code">) =>
  Effect.tap(newContact(tenant, fields), (contact) => Effect.flatMap(ContactRepo, (repo) => repo.insert(contact)))

export const subcontractorFields = (cisDetails: CisDetails, verification: Verification = notVerified) => ({
  isSupplier: true,
  isCisSubcontractor: true,
  cisDetails,
  verification,
  supplierSettings: new SupplierSettings({ defaultVatRate: "NoVat", paymentTermsDays: null })
})

const query = (fields: Partial<ContactQuery> = {}): ContactQuery => ({
  offset: 0,
  limit: 50,
  sortBy: "Name",
  sortDesc: false,
  terms: [],
  role: null,
  verificationStatus: null,
  ...fields
})

const codesOf = (tenant: Tenant, q: Partial<ContactQuery> = {}) =>
  Effect.flatMap(ContactRepo, (repo) => repo.list(tenant.id, query(q))).pipe(
    Effect.map((page) => page.items.map((c) => c.code))
  )

/** Every member of a contact set, none left to its default. */
export const everyMember = {
  name: "Full Contact Ltd",
  email: Email.make("full@example.com"),
  externalId: "EXT-1",
  isCustomer: true,
  vatRegistered: true,
  vatNumber: "GB123456789",
  lastSdcDate: "2026-04-05",
  ...subcontractorFields(
    identity({
      title: "Mr",
      firstName: "Jo",
      secondName: "K",
      lastName: "Bloggs",
      tradingName: "JB",
      utr: "2234567890",
      niNumber: "AB123456C",
      companyNumber: "SC001234"
    }),
    new Verification({
      status: "Verified",
      verificationNumber: "V123",
      taxTreatment: "Net",
      verifiedAt: at(7),
      source: "Hmrc",
      message: "ok"
    })
  ),
  supplierSettings: new SupplierSettings({ defaultVatRate: "ReverseCharge", paymentTermsDays: 30 }),
  createdAt: at(1),
  updatedAt: at(2)
} satisfies Partial<ContactFields>

export const contactRepoContract = (it: ContractIt) => {
  it.effect("keeps every member of a contact, found by tenant and code", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const full = yield* inserted(tenant, { code: "FULL", ...everyMember })
      const bare = yield* inserted(tenant, { code: "BARE" })
      expect(yield* repo.findByCode(tenant.id, "FULL")).toEqual(Option.some(full))
      expect(yield* repo.findByCode(tenant.id, "BARE")).toEqual(Option.some(bare))
      expect(yield* repo.findByCode(tenant.id, "NONE")).toEqual(Option.none())
      const other = yield* storedTenant
      expect(yield* repo.findByCode(other.id, "FULL")).toEqual(Option.none())
    })
  )

  it.effect("finds the tenant's contacts among many codes, leaving out unknown codes and other tenants'", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const first = yield* inserted(tenant, { code: "MANY1" })
      const second = yield* inserted(tenant, { code: "MANY2" })
      yield* inserted(other, { code: "MANY3" })
      const found = yield* repo.findByCodes(tenant.id, ["MANY2", "MANY1", "MANY3", "NONE"])
      expect([...found].sort((a, b) => a.code.localeCompare(b.code))).toEqual([first, second])
      expect(yield* repo.findByCodes(tenant.id, [])).toEqual([])
    })
  )

  it.effect("finds a contact for update, inside a transaction, by tenant and code only", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const { transaction } = yield* Transactor
      const tenant = yield* storedTenant
      const contact = yield* inserted(tenant, { code: "LOCKED", isCustomer: true })
      expect(yield* transaction(repo.findByCodeForUpdate(tenant.id, "LOCKED"))).toEqual(Option.some(contact))
      expect(yield* transaction(repo.findByCodeForUpdate(tenant.id, "NONE"))).toEqual(Option.none())
      const other = yield* storedTenant
      expect(yield* transaction(repo.findByCodeForUpdate(other.id, "LOCKED"))).toEqual(Option.none())
    })
  )

  it.effect("issues a code once per tenant: a reused code, even a deleted contact's, is DuplicateKey code", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const first = yield* inserted(tenant, { code: "ACME" })
      const clash = yield* newContact(tenant, { code: "ACME", name: "Another" })
      expect(yield* Effect.flip(repo.insert(clash))).toMatchObject({ _tag: "DuplicateKey", key: "code" })
      yield* repo.remove(tenant.id, first.id)
      expect(yield* repo.findByCode(tenant.id, "ACME")).toEqual(Option.none())
      expect(yield* Effect.flip(repo.insert(clash))).toMatchObject({ _tag: "DuplicateKey", key: "code" })
      expect(yield* codesOf(tenant)).toEqual([])
      // Another tenant has codes of its own.
      const other = yield* storedTenant
      yield* inserted(other, { code: "ACME" })
      expect(yield* codesOf(other)).toEqual(["ACME"])
    })
  )

  it.effect("tells which of a base's candidate codes were ever issued in the tenant", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      for (const code of ["ACMEBUIL", "ACMEBUI2", "ACMEBU10", "ACMEBUIX", "ACME", "A1234567", "BCMEBUI3"]) {
        yield* inserted(tenant, { code })
      }
      const gone = yield* inserted(tenant, { code: "ACMEBUI3" })
      yield* repo.remove(tenant.id, gone.id)
      const other = yield* storedTenant
      yield* inserted(other, { code: "ACMEBUI4" })
      expect([...(yield* repo.issuedCodes(tenant.id, "ACMEBUIL"))].sort()).toEqual([
        "A1234567",
        "ACMEBU10",
        "ACMEBUI2",
        "ACMEBUI3",
        "ACMEBUIL"
      ])
      expect([...(yield* repo.issuedCodes(tenant.id, "ACME"))].sort()).toEqual(["A1234567", "ACME"])
      expect(yield* repo.issuedCodes(tenant.id, "ZED")).toEqual(new Set())
    })
  )

  it.effect("updates the stored members of the tenant's contact only, and removes it in its tenant only", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const contact = yield* inserted(tenant, { code: "UPD", isCustomer: true })
      const theirs = yield* inserted(other, { code: "UPD", isCustomer: true })
      const changed = new Contact({
        ...contact,
        name: "Renamed",
        isCustomer: false,
        ...subcontractorFields(identity({ utr: "2234567890" })),
        updatedAt: at(9)
      })
      const counts = Effect.all(
        [query(), query({ role: "Customer" }), query({ verificationStatus: "NotVerified" })].map((q) =>
          Effect.map(repo.list(tenant.id, q), (page) => page.totalCount)
        )
      )
      expect(yield* counts).toEqual([1, 1, 0])
      yield* repo.update(changed)
      expect(yield* counts).toEqual([1, 0, 1])
      expect(yield* repo.findByCode(tenant.id, "UPD")).toEqual(Option.some(changed))
      expect(yield* repo.findByCode(other.id, "UPD")).toEqual(Option.some(theirs))
      yield* repo.remove(other.id, contact.id)
      expect(yield* repo.findByCode(tenant.id, "UPD")).toEqual(Option.some(changed))
      yield* repo.remove(tenant.id, contact.id)
      expect(yield* counts).toEqual([0, 0, 0])
      expect(yield* repo.findByCode(tenant.id, "UPD")).toEqual(Option.none())
      expect(yield* repo.findByCode(other.id, "UPD")).toEqual(Option.some(theirs))
    })
  )

  it.effect("sorts by each field in either direction, ties broken by code in the same direction", () =>
    Effect.gen(function* () {
      const tenant = yield* storedTenant
      const email = (s: string) => Email.make(`${s}@example.com`)
      yield* inserted(tenant, { code: "C1", name: "banana", email: email("b"), createdAt: at(3), updatedAt: at(1) })
      yield* inserted(tenant, { code: "C2", name: "Apple", email: null, createdAt: at(1), updatedAt: at(3) })
      yield* inserted(tenant, { code: "C3", name: "cherry", email: email("a"), createdAt: at(2), updatedAt: at(2) })
      yield* inserted(tenant, { code: "C0", name: "Banana", email: email("b"), createdAt: at(3), updatedAt: at(1) })
      yield* inserted(tenant, { code: "A9", name: "Élan", email: email("z"), createdAt: at(0), updatedAt: at(4) })
      const sorted = (sortBy: ContactQuery["sortBy"]) =>
        Effect.all([codesOf(tenant, { sortBy }), codesOf(tenant, { sortBy, sortDesc: true })])
      // By name case-insensitively, in code point order (É after the ASCII letters).
      expect(yield* sorted("Name")).toEqual([
        ["C2", "C0", "C1", "C3", "A9"],
        ["A9", "C3", "C1", "C0", "C2"]
      ])
      expect(yield* sorted("Code")).toEqual([
        ["A9", "C0", "C1", "C2", "C3"],
        ["C3", "C2", "C1", "C0", "A9"]
      ])
      // A missing email sorts last, or first when descending.
      expect(yield* sorted("Email")).toEqual([
        ["C3", "C0", "C1", "A9", "C2"],
        ["C2", "A9", "C1", "C0", "C3"]
      ])
      expect(yield* sorted("CreatedAt")).toEqual([
        ["A9", "C2", "C3", "C0", "C1"],
        ["C1", "C0", "C3", "C2", "A9"]
      ])
      expect(yield* sorted("UpdatedAt")).toEqual([
        ["C0", "C1", "C3", "C2", "A9"],
        ["A9", "C2", "C3", "C1", "C0"]
      ])
    })
  )

  it.effect("pages with offset and limit, counting every match", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      for (let i = 1; i <= 7; i++) yield* inserted(tenant, { code: `P${i}`, name: `Page ${i}` })
      const page = yield* repo.list(tenant.id, query({ offset: 2, limit: 3 }))
      expect(page.totalCount).toBe(7)
      expect(page.items.map((c) => c.code)).toEqual(["P3", "P4", "P5"])
      expect(yield* repo.list(tenant.id, query({ offset: 7, limit: 3 }))).toEqual({ items: [], totalCount: 7 })
      expect(yield* repo.list(tenant.id, query({ offset: 7, terms: ["page"] }))).toEqual({ items: [], totalCount: 7 })
      const searched = yield* repo.list(tenant.id, query({ offset: 1, limit: 2, terms: ["page"], sortDesc: true }))
      expect(searched.items.map((c) => c.code)).toEqual(["P6", "P5"])
      expect(yield* repo.list(tenant.id, query({ offset: 6, limit: 3, sortDesc: true }))).toMatchObject({
        totalCount: 7,
        items: [{ code: "P1" }]
      })
      const empty = yield* storedTenant
      expect(yield* repo.list(empty.id, query())).toEqual({ items: [], totalCount: 0 })
    })
  )

  it.effect("searches name, code and email, and subcontractors' UTR, NI number, company number and trading name", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      yield* inserted(tenant, { code: "ACMEBUIL", name: "Acme Builders", email: Email.make("office@acme.example") })
      yield* inserted(tenant, {
        code: "SUB1",
        name: "Jo Bloggs",
        ...subcontractorFields(
          identity({
            tradingName: "Bloggs Roofing",
            utr: "2234567890",
            niNumber: "AB123456C",
            companyNumber: "SC001234"
          })
        )
      })
      // The identity on record of a contact that is no longer a subcontractor is not searched.
      yield* inserted(tenant, {
        code: "FORMER",
        name: "Former Sub",
        cisDetails: identity({ tradingName: "Hidden Trades", utr: "1097172564" }),
        verification: notVerified
      })
      yield* inserted(tenant, { code: "PCT", name: "100% Discount_Store" })
      const search = (...terms: ReadonlyArray<string>) => codesOf(tenant, { terms })
      expect(yield* search("acme")).toEqual(["ACMEBUIL"])
      expect(yield* search("uil")).toEqual(["ACMEBUIL"])
      expect(yield* search("acme.exam")).toEqual(["ACMEBUIL"])
      expect(yield* search("sub")).toEqual(["FORMER", "SUB1"])
      expect(yield* search("2234567")).toEqual(["SUB1"])
      expect(yield* search("ab123456c")).toEqual(["SUB1"])
      expect(yield* search("sc0012")).toEqual(["SUB1"])
      expect(yield* search("roofing")).toEqual(["SUB1"])
      expect(yield* search("hidden")).toEqual([])
      expect(yield* search("1097172564")).toEqual([])
      // Every term must match; LIKE's wildcards are plain characters.
      expect(yield* search("jo", "bloggs")).toEqual(["SUB1"])
      expect(yield* search("bloggs", "acme")).toEqual([])
      expect(yield* search("0%")).toEqual(["PCT"])
      expect(yield* search("t_s")).toEqual(["PCT"])
      expect(yield* search("%")).toEqual(["PCT"])
      expect(yield* search("_")).toEqual(["PCT"])
      expect((yield* repo.list(tenant.id, query({ terms: ["acme"] }))).totalCount).toBe(1)
    })
  )

  it.effect("filters by role, and by verification status among subcontractors only", () =>
    Effect.gen(function* () {
      const tenant = yield* storedTenant
      const verification = (status: Verification["status"]) => new Verification({ ...notVerified, status })
      yield* inserted(tenant, { code: "CUST", isCustomer: true })
      yield* inserted(tenant, { code: "SUPP", isSupplier: true })
      yield* inserted(tenant, { code: "SUBV", ...subcontractorFields(identity({}), verification("Verified")) })
      yield* inserted(tenant, { code: "SUBN", isCustomer: true, ...subcontractorFields(identity({})) })
      yield* inserted(tenant, { code: "SUBE", ...subcontractorFields(identity({}), verification("Error")) })
      // Once a subcontractor, verified: its verification is on record but it is no longer one.
      yield* inserted(tenant, { code: "EXSUB", isSupplier: true, verification: verification("Verified") })
      expect(yield* codesOf(tenant, { role: "Customer", sortBy: "Code" })).toEqual(["CUST", "SUBN"])
      expect(yield* codesOf(tenant, { role: "Supplier", sortBy: "Code" })).toEqual([
        "EXSUB",
        "SUBE",
        "SUBN",
        "SUBV",
        "SUPP"
      ])
      expect(yield* codesOf(tenant, { role: "CisSubcontractor", sortBy: "Code" })).toEqual(["SUBE", "SUBN", "SUBV"])
      expect(yield* codesOf(tenant, { verificationStatus: "All", sortBy: "Code" })).toEqual(["SUBE", "SUBN", "SUBV"])
      expect(yield* codesOf(tenant, { verificationStatus: "Verified" })).toEqual(["SUBV"])
      expect(yield* codesOf(tenant, { verificationStatus: "NotVerified" })).toEqual(["SUBN"])
      expect(yield* codesOf(tenant, { verificationStatus: "Error" })).toEqual(["SUBE"])
      expect(yield* codesOf(tenant, { verificationStatus: "NotVerified", role: "Customer" })).toEqual(["SUBN"])
      expect(yield* codesOf(tenant, { verificationStatus: "Verified", role: "Customer" })).toEqual([])
    })
  )

  it.effect("lists, searches and counts one tenant's contacts only", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      yield* inserted(mine, { code: "SHARED", name: "Shared Name" })
      yield* inserted(theirs, { code: "SHARED", name: "Shared Name" })
      yield* inserted(theirs, { code: "SECRET", name: "Shared Secret", isCustomer: true })
      const page = yield* repo.list(mine.id, query({ terms: ["shared"] }))
      expect(page.totalCount).toBe(1)
      expect(page.items.map((c) => [c.tenantId, c.code])).toEqual([[mine.id, "SHARED"]])
      expect(yield* codesOf(mine, { terms: ["secret"] })).toEqual([])
      expect(yield* codesOf(mine, { role: "Customer" })).toEqual([])
    })
  )
}
