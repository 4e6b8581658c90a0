import { ContactActivityFake, ContactActivityMemory } from "@cisbook/testkit/ContactActivityMemory"
import { InvoiceStoresMemory } from "@cisbook/testkit/MemoryPorts"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import type { TenantCode } from "@cisbook/core/tenants/Tenant"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { e2e, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

/** A user with a client, owning a new tenant. */
const owner = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: `${name} Ltd` } })
    return { ...user, tenant }
  })

const subcontractor = {
  name: "John Smith Groundworks",
  email: "john@smith.example",
  isSupplier: true,
  isCisSubcontractor: true,
  vatRegistered: true,
  cisDetails: {
    type: "SoleTrader",
    title: null,
    firstName: "John",
    secondName: null,
    lastName: "Smith",
    tradingName: "Smith Groundworks",
    utr: "2234 567 890",
    niNumber: "ab 12 34 56 c",
    companyNumber: null
  }
} as const

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("contacts over HTTP", (it) => {
  describe("create and get", () => {
    it.effect(
      "answers 201 with the whole ContactDto, every absent value null, and finds it by its code in any case",
      () =>
        Effect.gen(function* () {
          const { api, key, tenant } = yield* owner("create")
          const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts`, subcontractor)
          expect(res.status).toBe(201)
          expect(res.contentType).toMatch(/^application\/json/)
          expect(res.body).toEqual({
            code: "JOHNSMIT",
            name: "John Smith Groundworks",
            email: "john@smith.example",
            externalId: null,
            isCustomer: false,
            isSupplier: true,
            isCisSubcontractor: true,
            vatRegistered: true,
            vatNumber: null,
            lastSdcDate: null,
            cisDetails: {
              type: "SoleTrader",
              title: null,
              firstName: "John",
              secondName: null,
              lastName: "Smith",
              tradingName: "Smith Groundworks",
              utr: "2234567890",
              niNumber: "AB123456C",
              companyNumber: null,
              partnerUtr: null
            },
            verification: {
              status: "NotVerified",
              verificationNumber: null,
              taxTreatment: null,
              verifiedAt: null,
              source: null,
              message: null
            },
            supplierSettings: { defaultVatRate: "Standard", paymentTermsDays: null },
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updatedAt: res.body?.createdAt
          })
          const got = yield* raw(key, "GET", `/tenants/${tenant}/contacts/johnsmit`)
          expect(got).toMatchObject({ status: 200, body: res.body })
          const viaSdk = yield* api.contacts.getContact({ path: { tenant, code: "JohnSmit" } })
          expect(viaSdk.code).toBe("JOHNSMIT")
          expect(viaSdk.cisDetails?.utr).toBe("2234567890")
        })
    )

    it.effect("makes codes unique with a suffix and never reuses a deleted contact's code", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("codes")
        const create = () => api.contacts.createContact({ path: { tenant }, payload: { name: "Acme Builders" } })
        expect((yield* create()).code).toBe("ACMEBUIL")
        expect((yield* create()).code).toBe("ACMEBUI2")
        yield* api.contacts.deleteContact({ path: { tenant, code: "acmebui2" } })
        expect((yield* create()).code).toBe("ACMEBUI3")
        // Concurrent creates still get distinct codes.
        const racing = yield* Effect.all(Array.from({ length: 5 }, create), { concurrency: 5 })
        expect(new Set(racing.map((c) => c.code)).size).toBe(5)
      })
    )

    it.effect("reports every invalid member, CIS identity members by their path, and changes nothing", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("invalid")
        const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts`, {
          name: " ",
          email: "not-an-email",
          lastSdcDate: "2026-02-30",
          supplierSettings: { defaultVatRate: "Huge" },
          cisDetails: { type: "SoleTrader", utr: "1234567890", niNumber: "QQ123456", companyNumber: "A1" }
        })
        expect(res.status).toBe(400)
        expect(res.contentType).toMatch(/^application\/problem\+json/)
        expect(res.body).toMatchObject({ status: 400, title: "One or more validation errors occurred." })
        expect(Object.keys(res.body?.errors ?? {}).sort()).toEqual([
          "cisDetails.companyNumber",
          "cisDetails.niNumber",
          "cisDetails.utr",
          "email",
          "lastSdcDate",
          "name",
          "supplierSettings.defaultVatRate"
        ])
        expect(res.body?.errors["cisDetails.utr"]).toEqual([
          "Must be a 10-digit UTR with a valid check digit, for example 2234567890"
        ])
        expect(res.body?.errors["email"]).toEqual(["Must be an email address such as name@example.com"])
        const notSupplier = yield* raw(key, "POST", `/tenants/${tenant}/contacts`, {
          ...subcontractor,
          isSupplier: false
        })
        expect(notSupplier.status).toBe(400)
        expect(notSupplier.body?.errors).toEqual({
          isSupplier: ["A CIS subcontractor is always also a supplier: set isSupplier to true"]
        })
        expect((yield* api.contacts.listContacts({ path: { tenant }, urlParams: {} })).totalCount).toBe(0)
      })
    )

    it.effect("is 401 without credentials, 404 for an unknown tenant or contact", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("status")
        expect((yield* raw(undefined, "GET", `/tenants/${tenant}/contacts`)).status).toBe(401)
        expect((yield* raw(undefined, "POST", `/tenants/${tenant}/contacts`, { name: "X" })).status).toBe(401)
        const unknownTenant = yield* raw(key, "GET", `/tenants/no-such-tenant-here/contacts/ABC`)
        expect(unknownTenant.status).toBe(404)
        const unknownContact = yield* raw(key, "GET", `/tenants/${tenant}/contacts/NOPE`)
        expect(unknownContact).toMatchObject({ status: 404, body: { status: 404, title: "Not Found" } })
        expect(unknownContact.contentType).toMatch(/^application\/problem\+json/)
        expect(unknownContact.body?.detail).toBe(`There is no contact with the code NOPE in ${tenant}.`)
        for (const method of ["PUT", "DELETE"] as const) {
          const res = yield* raw(
            key,
            method,
            `/tenants/${tenant}/contacts/NOPE`,
            method === "PUT"
              ? { name: "X", isCustomer: true, isSupplier: false, isCisSubcontractor: false, vatRegistered: false }
              : undefined
          )
          expect(res.status).toBe(404)
        }
      })
    )
  })

  describe("update and delete", () => {
    it.effect("replaces the editable members, keeping code, externalId and lastSdcDate", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("update")
        const created = yield* api.contacts.createContact({
          path: { tenant },
          payload: { name: "Acme", isCustomer: true, externalId: "E-1", lastSdcDate: "2026-04-05", vatNumber: "GB1" }
        })
        const res = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/acme`, {
          name: "Acme Two",
          code: "HACKED",
          externalId: "E-2",
          isCustomer: true,
          isSupplier: true,
          isCisSubcontractor: false,
          vatRegistered: false,
          supplierSettings: { defaultVatRate: "Zero", paymentTermsDays: 30 }
        })
        expect(res.status).toBe(200)
        expect(res.body).toMatchObject({
          code: "ACME",
          name: "Acme Two",
          externalId: "E-1",
          lastSdcDate: "2026-04-05",
          vatNumber: null,
          isSupplier: true,
          supplierSettings: { defaultVatRate: "Zero", paymentTermsDays: 30 },
          createdAt: created.createdAt.toISOString()
        })
        const got = yield* api.contacts.getContact({ path: { tenant, code: "ACME" } })
        expect(got.name).toBe("Acme Two")
      })
    )

    it.effect("requires cisDetails for a subcontractor and supplierSettings for a supplier (400 naming each)", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("rule3")
        const created = yield* raw(key, "POST", `/tenants/${tenant}/contacts`, subcontractor)
        const res = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/${created.body?.code}`, {
          name: "John",
          isCustomer: false,
          isSupplier: true,
          isCisSubcontractor: true,
          vatRegistered: false,
          cisDetails: null
        })
        expect(res.status).toBe(400)
        expect(Object.keys(res.body?.errors ?? {})).toEqual(["cisDetails", "supplierSettings"])
        const missingFlags = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/${created.body?.code}`, {
          name: "John"
        })
        expect(missingFlags.status).toBe(400)
        expect(Object.keys(missingFlags.body?.errors ?? {}).sort()).toEqual([
          "isCisSubcontractor",
          "isCustomer",
          "isSupplier",
          "vatRegistered"
        ])
        expect((yield* raw(key, "GET", `/tenants/${tenant}/contacts/${created.body?.code}`)).body).toEqual(created.body)
      })
    )

    it.effect("keeps the CIS identity and verification while the role is away and brings the verification back", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("roles")
        const created = yield* api.contacts.createContact({ path: { tenant }, payload: subcontractor })
        const replace = (body: Record<string, unknown>) =>
          raw(key, "PUT", `/tenants/${tenant}/contacts/${created.code}`, {
            name: created.name,
            isCustomer: false,
            isSupplier: true,
            vatRegistered: true,
            supplierSettings: { defaultVatRate: "Standard" },
            ...body
          })
        const away = yield* replace({ isCisSubcontractor: false })
        expect(away.body).toMatchObject({ isCisSubcontractor: false, cisDetails: null, verification: null })
        const listed = yield* api.contacts.listContacts({ path: { tenant }, urlParams: { verificationStatus: "All" } })
        expect(listed.totalCount).toBe(0)
        const back = yield* replace({
          isCisSubcontractor: true,
          cisDetails: { type: "Company", companyNumber: "sc1234" }
        })
        expect(back.body?.verification).toEqual(
          (yield* raw(key, "GET", `/tenants/${tenant}/contacts/${created.code}`)).body?.verification
        )
        expect(back.body?.verification?.status).toBe("NotVerified")
        expect(back.body?.cisDetails).toMatchObject({ type: "Company", companyNumber: "SC001234", firstName: null })
      })
    )

    it.effect("deletes with 204; the contact is gone", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("delete")
        yield* api.contacts.createContact({ path: { tenant }, payload: { name: "Temporary" } })
        const res = yield* raw(key, "DELETE", `/tenants/${tenant}/contacts/temporar`)
        expect(res).toMatchObject({ status: 204, body: undefined })
        const gone = yield* api.contacts.getContact({ path: { tenant, code: "TEMPORAR" } }).pipe(Effect.flip)
        expect(gone._tag).toBe("NotFound")
      })
    )
  })

  describe("list", () => {
    it.effect("pages, sorts, searches and filters; a limit above 50 is served as 50", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("list")
        for (const name of ["Delta Dry Lining", "alpha Scaffolds", "Charlie Plant Hire", "Bravo Bricks"]) {
          yield* api.contacts.createContact({
            path: { tenant },
            payload: { name, isCustomer: name !== "Bravo Bricks" }
          })
        }
        yield* api.contacts.createContact({ path: { tenant }, payload: subcontractor })
        const list = (urlParams: Parameters<typeof api.contacts.listContacts>[0]["urlParams"]) =>
          api.contacts.listContacts({ path: { tenant }, urlParams })
        const names = (urlParams: Parameters<typeof list>[0]) =>
          Effect.map(list(urlParams), (page) => page.items.map((c) => c.name))

        const first = yield* list({})
        expect({ ...first, items: first.items.map((c) => c.name) }).toEqual({
          items: [
            "alpha Scaffolds",
            "Bravo Bricks",
            "Charlie Plant Hire",
            "Delta Dry Lining",
            "John Smith Groundworks"
          ],
          totalCount: 5,
          offset: 0,
          limit: 10
        })
        expect(yield* list({ limit: 1000 })).toMatchObject({ limit: 50, totalCount: 5 })
        expect(yield* names({ offset: 1, limit: 2 })).toEqual(["Bravo Bricks", "Charlie Plant Hire"])
        expect(yield* names({ sortBy: "Code", sortDesc: true, limit: 2 })).toEqual([
          "John Smith Groundworks",
          "Delta Dry Lining"
        ])
        expect(yield* names({ search: "PLANT" })).toEqual(["Charlie Plant Hire"])
        expect(yield* names({ search: "a b" })).toHaveLength(5)
        expect(yield* names({ search: "2234567890" })).toEqual(["John Smith Groundworks"])
        expect(yield* names({ role: "Customer" })).toEqual([
          "alpha Scaffolds",
          "Charlie Plant Hire",
          "Delta Dry Lining"
        ])
        expect(yield* names({ verificationStatus: "NotVerified" })).toEqual(["John Smith Groundworks"])
        expect(yield* names({ verificationStatus: "Verified" })).toEqual([])
      })
    )

    it.effect("refuses a limit below 1, a negative offset and unknown enum values with 400 naming each", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("params")
        const get = (query: string) => raw(key, "GET", `/tenants/${tenant}/contacts?${query}`)
        for (const [query, member] of [
          ["limit=0", "limit"],
          ["offset=-1", "offset"],
          ["limit=ten", "limit"],
          ["sortBy=Colour", "sortBy"],
          ["role=Friend", "role"],
          ["verificationStatus=Maybe", "verificationStatus"],
          ["sortDesc=perhaps", "sortDesc"]
        ] as const) {
          const res = yield* get(query)
          expect(res.status, query).toBe(400)
          expect(res.contentType).toMatch(/^application\/problem\+json/)
          expect(Object.keys(res.body?.errors ?? {}), query).toEqual([member])
        }
        const both = yield* get("limit=0&offset=-5")
        expect(Object.keys(both.body?.errors ?? {}).sort()).toEqual(["limit", "offset"])
        expect((yield* get("limit=50&offset=0&sortBy=Email&sortDesc=true")).status).toBe(200)
      })
    )
  })

  describe("tenant isolation", () => {
    it.effect("never lets tenant B read, find, change or delete tenant A's contacts", () =>
      Effect.gen(function* () {
        const a = yield* owner("tenanta")
        const b = yield* owner("tenantb")
        const mine = yield* a.api.contacts.createContact({ path: { tenant: a.tenant }, payload: subcontractor })
        const replacement = {
          name: "Stolen",
          isCustomer: true,
          isSupplier: false,
          isCisSubcontractor: false,
          vatRegistered: false
        }
        // Through A's path: B is not a member.
        for (const [method, url, body] of [
          ["GET", `/tenants/${a.tenant}/contacts`, undefined],
          ["GET", `/tenants/${a.tenant}/contacts/${mine.code}`, undefined],
          ["POST", `/tenants/${a.tenant}/contacts`, { name: "Intruder" }],
          ["PUT", `/tenants/${a.tenant}/contacts/${mine.code}`, replacement],
          ["DELETE", `/tenants/${a.tenant}/contacts/${mine.code}`, undefined]
        ] as const) {
          const res = yield* raw(b.key, method, url, body)
          expect(res.status, `${method} ${url}`).toBe(403)
          expect(res.contentType).toMatch(/^application\/problem\+json/)
        }
        // Through B's own path: A's contact does not exist there.
        for (const [method, body] of [
          ["GET", undefined],
          ["PUT", replacement],
          ["DELETE", undefined]
        ] as const) {
          const res = yield* raw(b.key, method, `/tenants/${b.tenant}/contacts/${mine.code}`, body)
          expect(res.status).toBe(404)
        }
        const found = yield* b.api.contacts.listContacts({
          path: { tenant: b.tenant },
          urlParams: { search: "smith", verificationStatus: "All" }
        })
        expect(found).toEqual({ items: [], totalCount: 0, offset: 0, limit: 10 })
        // B's contact of the same name gets the same code, and A's stays as it was.
        const theirs = yield* b.api.contacts.createContact({ path: { tenant: b.tenant }, payload: { name: mine.name } })
        expect(theirs.code).toBe(mine.code)
        expect(yield* a.api.contacts.getContact({ path: { tenant: a.tenant, code: mine.code } })).toEqual(mine)
        expect((yield* a.api.contacts.listContacts({ path: { tenant: a.tenant }, urlParams: {} })).totalCount).toBe(1)
      })
    )
  })

  describe("documents", () => {
    it.effect("describe the contacts operations with summaries and examples", () =>
      Effect.gen(function* () {
        const doc = (yield* raw(undefined, "GET", "/openapi.json")).body ?? {}
        const paths = doc["paths"]
        expect(Object.keys(paths)).toEqual(
          expect.arrayContaining(["/tenants/{tenant}/contacts", "/tenants/{tenant}/contacts/{code}"])
        )
        expect(paths["/tenants/{tenant}/contacts"].post.summary).toContain("code is generated")
        expect(Object.keys(paths["/tenants/{tenant}/contacts/{code}"].put.responses).sort()).toEqual([
          "200",
          "400",
          "401",
          "403",
          "404",
          "409",
          "413",
          "415",
          "429",
          "503"
        ])
        expect(Object.keys(paths["/tenants/{tenant}/contacts/{code}"].delete.responses).sort()).toEqual([
          "204",
          "401",
          "403",
          "404",
          "409",
          "429",
          "503"
        ])
        const schemas = doc["components"].schemas
        expect(schemas.ContactDto.examples?.[0]).toMatchObject({
          code: "SMITHJ",
          createdAt: "2026-11-21T10:15:00.000Z"
        })
        expect(schemas.CreateContactRequest.examples?.[0]).toMatchObject({ name: "John Smith Groundworks" })
        expect(schemas).toHaveProperty("ContactDtoPagedResult")
      })
    )
  })
})

/** The SQL stack, with a stand-in for the invoices and connections capabilities. */
const WithActivity = e2e(
  Layer.merge(SqlTestPorts, ContactActivityMemory.pipe(Layer.provide(InvoiceStoresMemory)))
).pipe(Layer.provideMerge(ContactActivityFake.Default))

layer(WithActivity, { timeout: "60 seconds" })("contacts in use, over HTTP", (it) => {
  it.effect("is 409 for removing a role its invoices need and for deleting it, and changes nothing", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* owner("inuse")
      const created = yield* api.contacts.createContact({
        path: { tenant },
        payload: { name: "Busy", isCustomer: true }
      })
      const tenantId = Option.getOrThrow(yield* (yield* TenantRepo).findByCode(tenant as TenantCode)).id
      const contactId = Option.getOrThrow(yield* (yield* ContactRepo).findByCode(tenantId, "BUSY")).id
      yield* (yield* ContactActivityFake).set(tenantId, contactId, { salesInvoices: true })

      const res = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/busy`, {
        name: "Busy",
        isCustomer: false,
        isSupplier: false,
        isCisSubcontractor: false,
        vatRegistered: false
      })
      expect(res).toMatchObject({ status: 409, body: { status: 409, title: "Conflict" } })
      expect(res.contentType).toMatch(/^application\/problem\+json/)
      expect(res.body?.detail).toContain("sales invoices")
      const deleted = yield* api.contacts.deleteContact({ path: { tenant, code: "BUSY" } }).pipe(Effect.flip)
      assert(deleted._tag === "Conflict")
      expect(deleted.detail).toBe("BUSY has sales invoices, so it cannot be deleted.")
      expect(yield* api.contacts.getContact({ path: { tenant, code: "BUSY" } })).toEqual(created)
    })
  )
})
