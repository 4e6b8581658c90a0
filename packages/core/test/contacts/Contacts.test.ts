import { ContactActivityFake } from "@cisbook/testkit/ContactActivityMemory"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Ref } from "effect"
import { Contact, Verification } from "../../src/contacts/Contact.js"
import type { ContactReplacement, NewContact } from "../../src/contacts/ContactInput.js"
import { contactEventData, contactEventJson } from "../../src/contacts/ContactEventData.js"
import { Conflict, NotFound, ValidationFailed } from "../../src/Errors.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { EventOutbox } from "../../src/events/EventOutbox.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { asMember, asUser, aUser, plainCis, testApp } from "../TestApp.js"

const TENANT = "acme-builders"

/** An owner of acme-builders, and the use cases. */
const setUp = Effect.gen(function* () {
  const tenants = yield* Tenants
  const contacts = yield* Contacts
  const owner = yield* aUser("owner@example.com")
  const { tenant } = yield* tenants
    .create({ code: TenantCode.make(TENANT), name: "Acme", email: null })
    .pipe(asUser(owner))
  const events = Effect.flatMap(RecordedEvents, (recorded) => recorded.list(tenant.id)).pipe(
    Effect.map((all) => all.map((e) => ({ type: e.type, data: e.data })))
  )
  return { tenants, contacts, owner, tenant, events } as const
})

const cis = plainCis

const subcontractor: NewContact = {
  name: "John Smith Groundworks",
  isSupplier: true,
  isCisSubcontractor: true,
  vatRegistered: true,
  cisDetails: cis({ firstName: "John", lastName: "Smith", utr: "2234567890" })
}

/** Every editable member, as the contact in `dto` has it (a PUT that changes nothing). */
const unchanged = (dto: ReturnType<typeof contactEventData>): ContactReplacement => ({
  name: dto.name,
  email: dto.email ?? undefined,
  isCustomer: dto.isCustomer,
  isSupplier: dto.isSupplier,
  isCisSubcontractor: dto.isCisSubcontractor,
  vatRegistered: dto.vatRegistered,
  vatNumber: dto.vatNumber ?? undefined,
  cisDetails: dto.cisDetails ?? undefined,
  supplierSettings: dto.supplierSettings
    ? {
        defaultVatRate: dto.supplierSettings.defaultVatRate,
        paymentTermsDays: dto.supplierSettings.paymentTermsDays ?? undefined
      }
    : undefined
})

describe("Contacts.create", () => {
  it.effect(
    "makes a contact with its code from the name, defaults for what was left out, and records contact.created",
    () =>
      Effect.gen(function* () {
        const { contacts, events, owner } = yield* setUp
        const created = yield* contacts
          .create({ name: "Acme Builders Ltd", isCustomer: true })
          .pipe(asMember(owner, TENANT))
        const at = new Date("2026-11-21T09:00:00.000Z")
        expect(contactEventData(created)).toEqual({
          code: "ACMEBUIL",
          name: "Acme Builders Ltd",
          email: null,
          externalId: null,
          isCustomer: true,
          isSupplier: false,
          isCisSubcontractor: false,
          vatRegistered: false,
          vatNumber: null,
          lastSdcDate: null,
          cisDetails: null,
          verification: null,
          supplierSettings: null,
          createdAt: at,
          updatedAt: at
        })
        expect(yield* events).toEqual([
          {
            type: "contact.created",
            data: expect.objectContaining({ code: "ACMEBUIL", createdAt: "2026-11-21T09:00:00.000Z", cisDetails: null })
          }
        ])
        expect((yield* events)[0]?.data).toEqual(contactEventJson(created))
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("keeps every member given, blank optional strings as null", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const created = yield* contacts
        .create({
          name: "Bo",
          email: "bo@example.com",
          externalId: "X-1",
          isCustomer: true,
          isSupplier: true,
          vatRegistered: true,
          vatNumber: "",
          lastSdcDate: "2026-04-05",
          supplierSettings: { defaultVatRate: "Reduced", paymentTermsDays: 14 },
          cisDetails: cis({ utr: "2234567890" })
        })
        .pipe(asMember(owner, TENANT))
      expect(contactEventData(created)).toMatchObject({
        code: "BO",
        email: "bo@example.com",
        externalId: "X-1",
        vatNumber: null,
        lastSdcDate: "2026-04-05",
        supplierSettings: { defaultVatRate: "Reduced", paymentTermsDays: 14 },
        // Not a subcontractor: the identity sent is not taken.
        cisDetails: null,
        verification: null
      })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("gives a CIS subcontractor a NotVerified verification, and records subcontractor.created too", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      const created = yield* contacts.create(subcontractor).pipe(asMember(owner, TENANT))
      const dto = contactEventData(created)
      expect(dto.cisDetails).toEqual(cis({ firstName: "John", lastName: "Smith", utr: "2234567890" }))
      expect(dto.verification).toEqual({
        status: "NotVerified",
        verificationNumber: null,
        taxTreatment: null,
        verifiedAt: null,
        source: null,
        message: null
      })
      expect((yield* events).map((e) => e.type)).toEqual(["contact.created", "subcontractor.created"])
      expect((yield* events)[1]?.data).toEqual(contactEventJson(created))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("gives a subcontractor without cisDetails an empty SoleTrader identity", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const created = yield* contacts
        .create({ name: "Jo", isSupplier: true, isCisSubcontractor: true })
        .pipe(asMember(owner, TENANT))
      expect(contactEventData(created).cisDetails).toEqual(cis())
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("gives a supplier without supplierSettings the VAT rate that follows vatRegistered", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const registered = yield* contacts
        .create({ name: "A", isSupplier: true, vatRegistered: true })
        .pipe(asMember(owner, TENANT))
      const unregistered = yield* contacts.create({ name: "B", isSupplier: true }).pipe(asMember(owner, TENANT))
      expect(contactEventData(registered).supplierSettings).toEqual({
        defaultVatRate: "Standard",
        paymentTermsDays: null
      })
      expect(contactEventData(unregistered).supplierSettings).toEqual({
        defaultVatRate: "NoVat",
        paymentTermsDays: null
      })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a CIS subcontractor that is not a supplier, naming isSupplier, and keeps nothing", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      for (const isSupplier of [false, undefined]) {
        const error = yield* Effect.flip(
          contacts.create({ ...subcontractor, isSupplier }).pipe(asMember(owner, TENANT))
        )
        assert(error instanceof ValidationFailed)
        expect(Object.keys(error.errors)).toEqual(["isSupplier"])
      }
      expect((yield* contacts.list({}).pipe(asMember(owner, TENANT))).totalCount).toBe(0)
      expect(yield* events).toEqual([])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("makes codes unique in the tenant with a suffix, and never issues a deleted contact's code again", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const codes = []
      for (let i = 0; i < 3; i++)
        codes.push((yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(owner, TENANT))).code)
      expect(codes).toEqual(["ACMEBUIL", "ACMEBUI2", "ACMEBUI3"])
      yield* contacts.remove("ACMEBUI3").pipe(asMember(owner, TENANT))
      yield* contacts.remove("ACMEBUIL").pipe(asMember(owner, TENANT))
      expect((yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(owner, TENANT))).code).toBe("ACMEBUI4")
      expect((yield* contacts.create({ name: "?!" }).pipe(asMember(owner, TENANT))).code).toBe("CONTACT")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("picks the next code when another create took the one it chose meanwhile", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      yield* contacts.create({ name: "Acme" }).pipe(asMember(owner, TENANT))
      // The store answers the first look-up as it was before the other create.
      const stale = yield* Ref.make(true)
      const racing = Layer.effect(
        ContactRepo,
        Effect.map(ContactRepo, (repo) =>
          ContactRepo.of({
            ...repo,
            issuedCodes: (tenantId, base) =>
              Ref.getAndSet(stale, false).pipe(
                Effect.flatMap((first) =>
                  first ? Effect.succeed(new Set<string>()) : repo.issuedCodes(tenantId, base)
                )
              )
          })
        )
      )
      const created = yield* Effect.flatMap(Contacts, (c) =>
        c.create({ name: "Acme" }).pipe(asMember(owner, TENANT))
      ).pipe(Effect.provide(Contacts.Default.pipe(Layer.provide(racing))))
      expect(created.code).toBe("ACME2")
      expect((yield* contacts.list({}).pipe(asMember(owner, TENANT))).items.map((c) => c.code)).toEqual([
        "ACME",
        "ACME2"
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("writes the contact and its events in one transaction: an outbox failure keeps neither", () =>
    Effect.gen(function* () {
      const { owner } = yield* setUp
      const broken = Layer.succeed(EventOutbox, EventOutbox.of({ record: () => Effect.die("outbox down") }))
      const exit = yield* Effect.flatMap(Contacts, (c) =>
        c.create({ name: "Lost" }).pipe(asMember(owner, TENANT))
      ).pipe(Effect.provide(Contacts.Default.pipe(Layer.provide(broken))), Effect.exit)
      expect(exit._tag).toBe("Failure")
      const contacts = yield* Contacts
      expect((yield* contacts.list({}).pipe(asMember(owner, TENANT))).totalCount).toBe(0)
      // Its code was not issued either.
      expect((yield* contacts.create({ name: "Lost" }).pipe(asMember(owner, TENANT))).code).toBe("LOST")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is refused to a non-member (NotAMember) and NotFound for an unknown tenant", () =>
    Effect.gen(function* () {
      const { contacts } = yield* setUp
      const stranger = yield* aUser("stranger@example.com")
      expect(yield* Effect.flip(contacts.create({ name: "X" }).pipe(asMember(stranger, TENANT)))).toBeInstanceOf(
        NotAMember
      )
      expect(
        yield* Effect.flip(contacts.create({ name: "X" }).pipe(asMember(stranger, "no-such-tenant")))
      ).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Contacts.get", () => {
  it.effect("finds a contact by its code in any case; an unknown or malformed code is NotFound", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const created = yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(owner, TENANT))
      expect(yield* contacts.get("acmebuil").pipe(asMember(owner, TENANT))).toEqual(created)
      expect(yield* contacts.get(" AcmeBuil ").pipe(asMember(owner, TENANT))).toEqual(created)
      for (const code of ["ACMEBUI2", "ACME BUIL", "", "ACMEBUILD", "ÄCME"]) {
        expect(yield* Effect.flip(contacts.get(code).pipe(asMember(owner, TENANT)))).toEqual(
          new NotFound({ detail: `There is no contact with the code ${code} in ${TENANT}.` })
        )
      }
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("keeps tenants apart: a tenant's codes are its own, and a non-member is refused", () =>
    Effect.gen(function* () {
      const { contacts, owner, tenants } = yield* setUp
      const other = yield* aUser("other@example.com")
      yield* tenants.create({ code: TenantCode.make("other-ltd"), name: "Other", email: null }).pipe(asUser(other))
      const mine = yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(owner, TENANT))
      expect(yield* Effect.flip(contacts.get(mine.code).pipe(asMember(other, TENANT)))).toBeInstanceOf(NotAMember)
      expect(yield* Effect.flip(contacts.get(mine.code).pipe(asMember(other, "other-ltd")))).toBeInstanceOf(NotFound)
      const theirs = yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(other, "other-ltd"))
      expect(theirs.code).toBe("ACMEBUIL")
      expect(yield* contacts.get("ACMEBUIL").pipe(asMember(other, "other-ltd"))).toEqual(theirs)
      expect(yield* contacts.get("ACMEBUIL").pipe(asMember(owner, TENANT))).toEqual(mine)
      expect(yield* Effect.flip(contacts.remove(mine.code).pipe(asMember(other, TENANT)))).toBeInstanceOf(NotAMember)
      expect(
        yield* Effect.flip(contacts.update(mine.code, unchanged(contactEventData(mine))).pipe(asMember(other, TENANT)))
      ).toBeInstanceOf(NotAMember)
      expect(yield* Effect.flip(contacts.list({}).pipe(asMember(other, TENANT)))).toBeInstanceOf(NotAMember)
      expect((yield* contacts.list({}).pipe(asMember(other, "other-ltd"))).items).toEqual([theirs])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Contacts.update", () => {
  it.effect("replaces the editable members, keeps the code, external id, last SDC date and creation time", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      const created = yield* contacts
        .create({
          name: "Acme Builders",
          email: "old@acme.example",
          externalId: "EXT-9",
          lastSdcDate: "2026-03-05",
          isCustomer: true,
          vatNumber: "GB1"
        })
        .pipe(asMember(owner, TENANT))
      yield* (yield* ManualClock).advance(60_000)
      const updated = yield* contacts
        .update("acmebuil", {
          name: "Acme Construction",
          isCustomer: true,
          isSupplier: true,
          isCisSubcontractor: false,
          vatRegistered: true,
          supplierSettings: { defaultVatRate: "Zero" }
        })
        .pipe(asMember(owner, TENANT))
      expect(contactEventData(updated)).toEqual({
        ...contactEventData(created),
        name: "Acme Construction",
        email: null,
        isSupplier: true,
        vatRegistered: true,
        vatNumber: null,
        supplierSettings: { defaultVatRate: "Zero", paymentTermsDays: null },
        updatedAt: new Date("2026-11-21T09:01:00.000Z")
      })
      expect(updated.code).toBe("ACMEBUIL")
      expect(yield* contacts.get("ACMEBUIL").pipe(asMember(owner, TENANT))).toEqual(updated)
      expect((yield* events).map((e) => e.type)).toEqual(["contact.created", "contact.updated"])
      expect((yield* events)[1]?.data).toEqual(contactEventJson(updated))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("requires cisDetails for a subcontractor and supplierSettings for a supplier, naming each", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      const created = yield* contacts.create(subcontractor).pipe(asMember(owner, TENANT))
      const dto = contactEventData(created)
      const cases: ReadonlyArray<[Partial<ContactReplacement>, ReadonlyArray<string>]> = [
        [{ cisDetails: undefined }, ["cisDetails"]],
        [{ supplierSettings: undefined }, ["supplierSettings"]],
        [{ cisDetails: undefined, supplierSettings: undefined }, ["cisDetails", "supplierSettings"]],
        [{ isSupplier: false, supplierSettings: undefined }, ["isSupplier"]]
      ]
      for (const [change, members] of cases) {
        const error = yield* Effect.flip(
          contacts.update(dto.code, { ...unchanged(dto), ...change }).pipe(asMember(owner, TENANT))
        )
        assert(error instanceof ValidationFailed)
        expect(Object.keys(error.errors)).toEqual(members)
      }
      expect(yield* contacts.get(dto.code).pipe(asMember(owner, TENANT))).toEqual(created)
      expect((yield* events).map((e) => e.type)).toEqual(["contact.created", "subcontractor.created"])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("keeps the CIS identity and verification without the role, and brings the verification back with it", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      const created = yield* contacts.create(subcontractor).pipe(asMember(owner, TENANT))
      // The verification as HMRC left it.
      const verified = new Verification({
        status: "Verified",
        verificationNumber: "V1234567890",
        taxTreatment: "Net",
        verifiedAt: new Date("2026-11-20T12:00:00.000Z"),
        source: "Hmrc",
        message: null
      })
      yield* (yield* ContactRepo).update(new Contact({ ...created, verification: verified }))
      const dto = contactEventData(created)

      const removed = yield* contacts
        .update(dto.code, {
          ...unchanged(dto),
          isCisSubcontractor: false,
          cisDetails: undefined
        })
        .pipe(asMember(owner, TENANT))
      expect(contactEventData(removed)).toMatchObject({
        isCisSubcontractor: false,
        cisDetails: null,
        verification: null
      })
      expect(removed.cisDetails).toEqual(created.cisDetails)
      expect(removed.verification).toEqual(verified)

      const identity = cis({ type: "Company", tradingName: "Smith Ltd", companyNumber: "sc123456" })
      const back = yield* contacts
        .update(dto.code, { ...unchanged(dto), cisDetails: identity })
        .pipe(asMember(owner, TENANT))
      expect(contactEventData(back).verification).toEqual(verified)
      expect(contactEventData(back).cisDetails).toEqual({ ...identity, companyNumber: "SC123456" })
      // Becoming a subcontractor again is no new subcontractor.
      expect((yield* events).map((e) => e.type)).toEqual([
        "contact.created",
        "subcontractor.created",
        "contact.updated",
        "contact.updated"
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("starts a contact that first becomes a subcontractor NotVerified, recording subcontractor.created", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      const created = yield* contacts.create({ name: "Later Sub", isSupplier: true }).pipe(asMember(owner, TENANT))
      const updated = yield* contacts
        .update(created.code, {
          ...unchanged(contactEventData(created)),
          isCisSubcontractor: true,
          cisDetails: cis({ niNumber: "ab123456c" })
        })
        .pipe(asMember(owner, TENANT))
      expect(contactEventData(updated).verification?.status).toBe("NotVerified")
      expect(contactEventData(updated).cisDetails?.niNumber).toBe("AB123456C")
      expect((yield* events).map((e) => e.type)).toEqual([
        "contact.created",
        "contact.updated",
        "subcontractor.created"
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "refuses to remove the customer role while sales invoices exist, or the supplier role while purchase invoices do",
    () =>
      Effect.gen(function* () {
        const { contacts, events, owner, tenant } = yield* setUp
        const activity = yield* ContactActivityFake
        const both = yield* contacts
          .create({ name: "Both Ways", isCustomer: true, isSupplier: true })
          .pipe(asMember(owner, TENANT))
        const dto = contactEventData(both)
        yield* activity.set(tenant.id, both.id, { salesInvoices: true, purchaseInvoices: true })

        const noCustomer = yield* Effect.flip(
          contacts
            .update(dto.code, { ...unchanged(dto), isCustomer: false, name: "Renamed" })
            .pipe(asMember(owner, TENANT))
        )
        expect(noCustomer).toEqual(
          new Conflict({ detail: "BOTHWAYS cannot lose the role: it has sales invoices, so it stays a customer." })
        )
        const neither = yield* Effect.flip(
          contacts
            .update(dto.code, { ...unchanged(dto), isCustomer: false, isSupplier: false })
            .pipe(asMember(owner, TENANT))
        )
        assert(neither instanceof Conflict)
        expect(neither.detail).toContain("purchase invoices")
        expect(yield* contacts.get(dto.code).pipe(asMember(owner, TENANT))).toEqual(both)
        expect((yield* events).map((e) => e.type)).toEqual(["contact.created"])

        // Invoices in the other direction only do not hold the role.
        yield* activity.set(tenant.id, both.id, { purchaseInvoices: true })
        const updated = yield* contacts
          .update(dto.code, { ...unchanged(dto), isCustomer: false })
          .pipe(asMember(owner, TENANT))
        expect(updated.isCustomer).toBe(false)
        yield* activity.set(tenant.id, both.id, { salesInvoices: true })
        const noSupplier = yield* contacts
          .update(dto.code, {
            ...unchanged(contactEventData(updated)),
            isCustomer: true,
            isSupplier: false,
            supplierSettings: undefined
          })
          .pipe(asMember(owner, TENANT))
        expect(contactEventData(noSupplier)).toMatchObject({
          isCustomer: true,
          isSupplier: false,
          supplierSettings: null
        })
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("is NotFound for an unknown contact", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const error = yield* Effect.flip(
        contacts
          .update("NOPE", {
            name: "X",
            isCustomer: true,
            isSupplier: false,
            isCisSubcontractor: false,
            vatRegistered: false
          })
          .pipe(asMember(owner, TENANT))
      )
      expect(error).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Contacts.remove", () => {
  it.effect("deletes a contact and records contact.deleted with the contact as it was", () =>
    Effect.gen(function* () {
      const { contacts, events, owner } = yield* setUp
      const created = yield* contacts.create({ name: "Gone Soon" }).pipe(asMember(owner, TENANT))
      yield* contacts.remove("gonesoon").pipe(asMember(owner, TENANT))
      expect(yield* Effect.flip(contacts.get(created.code).pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
      expect(yield* Effect.flip(contacts.remove(created.code).pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
      expect(yield* events).toEqual([
        { type: "contact.created", data: contactEventJson(created) },
        { type: "contact.deleted", data: contactEventJson(created) }
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses with Conflict while the contact has sales or purchase invoices or a connection", () =>
    Effect.gen(function* () {
      const { contacts, events, owner, tenant } = yield* setUp
      const activity = yield* ContactActivityFake
      const created = yield* contacts.create({ name: "Busy", isCustomer: true }).pipe(asMember(owner, TENANT))
      const cases = [
        [{ salesInvoices: true }, "BUSY has sales invoices, so it cannot be deleted."],
        [{ purchaseInvoices: true }, "BUSY has purchase invoices, so it cannot be deleted."],
        [{ connections: true }, "BUSY has a connection, so it cannot be deleted."],
        [
          { salesInvoices: true, connections: true },
          "BUSY has sales invoices and a connection, so it cannot be deleted."
        ]
      ] as const
      for (const [has, detail] of cases) {
        yield* activity.set(tenant.id, created.id, has)
        expect(yield* Effect.flip(contacts.remove("BUSY").pipe(asMember(owner, TENANT)))).toEqual(
          new Conflict({ detail })
        )
      }
      expect(yield* contacts.get("BUSY").pipe(asMember(owner, TENANT))).toEqual(created)
      expect((yield* events).map((e) => e.type)).toEqual(["contact.created"])
      yield* activity.set(tenant.id, created.id, {})
      yield* contacts.remove("BUSY").pipe(asMember(owner, TENANT))
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Contacts.list", () => {
  it.effect("pages by name with defaults offset 0 and limit 10, and serves a limit above 50 as 50", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      for (let i = 0; i < 55; i++)
        yield* contacts.create({ name: `Contact ${String(54 - i).padStart(2, "0")}` }).pipe(asMember(owner, TENANT))
      const first = yield* contacts.list({}).pipe(asMember(owner, TENANT))
      expect({ ...first, items: first.items.map((c) => c.name) }).toEqual({
        items: Array.from({ length: 10 }, (_, i) => `Contact ${String(i).padStart(2, "0")}`),
        totalCount: 55,
        offset: 0,
        limit: 10
      })
      const big = yield* contacts.list({ limit: 500, offset: 3 }).pipe(asMember(owner, TENANT))
      expect(big).toMatchObject({ totalCount: 55, offset: 3, limit: 50 })
      expect(big.items).toHaveLength(50)
      expect(big.items[0]?.name).toBe("Contact 03")
      const past = yield* contacts.list({ offset: 100 }).pipe(asMember(owner, TENANT))
      expect(past).toEqual({ items: [], totalCount: 55, offset: 100, limit: 10 })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a limit below 1 and a negative offset, naming each", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      const error = yield* Effect.flip(contacts.list({ limit: 0, offset: -1 }).pipe(asMember(owner, TENANT)))
      assert(error instanceof ValidationFailed)
      expect(Object.keys(error.errors).sort()).toEqual(["limit", "offset"])
      const fraction = yield* Effect.flip(contacts.list({ limit: 1.5 }).pipe(asMember(owner, TENANT)))
      assert(fraction instanceof ValidationFailed)
      expect(Object.keys(fraction.errors)).toEqual(["limit"])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("searches with the terms of 3 characters or more, and filters by role and verification status", () =>
    Effect.gen(function* () {
      const { contacts, owner } = yield* setUp
      yield* contacts.create({ name: "Acme Builders", isCustomer: true }).pipe(asMember(owner, TENANT))
      yield* contacts.create(subcontractor).pipe(asMember(owner, TENANT))
      const names = (request: Parameters<typeof contacts.list>[0]) =>
        Effect.map(contacts.list(request).pipe(asMember(owner, TENANT)), (page) => page.items.map((c) => c.name))
      expect(yield* names({ search: "ACME" })).toEqual(["Acme Builders"])
      expect(yield* names({ search: "ac me" })).toEqual(["Acme Builders", "John Smith Groundworks"])
      expect(yield* names({ search: "smith 2234567890" })).toEqual(["John Smith Groundworks"])
      expect(yield* names({ role: "Customer" })).toEqual(["Acme Builders"])
      expect(yield* names({ verificationStatus: "All" })).toEqual(["John Smith Groundworks"])
      expect(yield* names({ verificationStatus: "Verified" })).toEqual([])
      expect(yield* names({ sortBy: "Code", sortDesc: true })).toEqual(["John Smith Groundworks", "Acme Builders"])
    }).pipe(Effect.provide(testApp()))
  )
})
