import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { FAKE_RESPONSE_ENDPOINT, TaxAuthorityFake } from "@cisbook/testkit/TaxAuthorityFake"
import { assert, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Schema } from "effect"
import { CisDetails } from "../../src/cis/CisDetails.js"
import { CisScheme } from "../../src/cis/CisScheme.js"
import { Contact, Verification } from "../../src/contacts/Contact.js"
import { contactEventJson } from "../../src/contacts/ContactEventData.js"
import { NotFound, Refused, ValidationFailed } from "../../src/Errors.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { VerificationQueue } from "../../src/verification/VerificationQueue.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { Verifications } from "../../src/verification/Verifications.js"
import { VerificationWork } from "../../src/verification/VerificationWork.js"
import { FilingCheck } from "../../src/taxauthority/FilingCheck.js"
import { asMember, asUser, aUser, plainCis, testApp, testAppWith } from "../TestApp.js"

const TENANT = "acme-builders"
const LEASE = Duration.seconds(60)

const cis = plainCis

const john = cis({ firstName: "John", lastName: "Smith", utr: "2234567890" })

const requested = { status: "NotVerified", source: "Hmrc", message: "Verification requested" } as const

const scheme = { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }

/** The contractor's own CIS details: HMRC's verification request carries its UTR. */
const acme = { type: "Company", tradingName: "Acme Ltd", utr: "1097172564" } as const

/**
 * An owner of acme-builders with a subcontractor JOHNSMIT, and the use cases; the tenant's CIS
 * scheme registration and own UTR are set unless a test needs them missing.
 */
const setUpWith = (options: { readonly scheme: boolean; readonly utr?: boolean }) =>
  Effect.gen(function* () {
    const owner = yield* aUser("owner@example.com")
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make(TENANT),
        name: "Acme",
        email: null
      })
      .pipe(asUser(owner))
    const contacts = yield* Contacts
    const contact = yield* contacts
      .create({
        name: "John Smith",
        isSupplier: true,
        isCisSubcontractor: true,
        cisDetails: john
      })
      .pipe(asMember(owner, TENANT))
    if (options.scheme) yield* (yield* TenantSettings).setCisScheme(scheme).pipe(asMember(owner, TENANT))
    if (options.scheme) yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(owner, TENANT))
    if (options.utr ?? true) yield* (yield* TenantSettings).setCisDetails(acme).pipe(asMember(owner, TENANT))
    const events = Effect.flatMap(RecordedEvents, (recorded) => recorded.list(tenant.id)).pipe(
      Effect.map((all) => all.map((e) => ({ type: e.type, data: e.data })))
    )
    return {
      owner,
      tenant,
      contact,
      contacts,
      events,
      verifications: yield* Verifications,
      work: yield* VerificationWork,
      queue: yield* VerificationQueue,
      authority: yield* TaxAuthorityFake,
      clock: yield* ManualClock
    } as const
  })

const setUp = setUpWith({ scheme: true })

describe("Verifications", () => {
  it.effect(
    "a request marks the subcontractor requested, records contact.updated, and queues the contractor's UTR and scheme with the subcontractor",
    () =>
      Effect.gen(function* () {
        const { contact, events, owner, queue, tenant, verifications } = yield* setUp
        yield* (yield* TenantSettings)
          .setCisDetails({
            type: "Company",
            tradingName: "Acme Ltd",
            utr: "1097172564"
          })
          .pipe(asMember(owner, TENANT))
        const answer = yield* verifications.request("johnsmit").pipe(asMember(owner, TENANT))
        expect(answer.verification).toMatchObject({ ...requested, verificationNumber: null, taxTreatment: null })
        expect(yield* (yield* Contacts).get(contact.code).pipe(asMember(owner, TENANT))).toEqual(answer)
        expect((yield* events).at(-1)).toEqual({ type: "contact.updated", data: contactEventJson(answer) })
        const queued = yield* queue.find(tenant.id, contact.id)
        assert(Option.isSome(queued))
        expect(queued.value).toMatchObject({ contactCode: "JOHNSMIT" })
        expect(queued.value.request.contractor).toEqual({
          utr: "1097172564",
          scheme: Schema.decodeUnknownSync(CisScheme)(scheme)
        })
        expect(queued.value.request.subcontractor).toEqual(Schema.decodeUnknownSync(CisDetails)(john))
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "refuses a request until the tenant's CIS scheme registration is set, naming both references, and changes nothing",
    () =>
      Effect.gen(function* () {
        const { contact, contacts, events, owner, queue, tenant, verifications } = yield* setUpWith({ scheme: false })
        const before = yield* events
        const refused = yield* Effect.flip(verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT)))
        assert(refused instanceof ValidationFailed)
        expect(Object.keys(refused.errors)).toEqual(["employerReference", "accountsOfficeReference"])
        expect(refused.errors.accountsOfficeReference?.[0]).toContain("123PW12345678")
        expect(yield* events).toEqual(before)
        expect(yield* queue.find(tenant.id, contact.id)).toEqual(Option.none())
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toEqual(
          contact.verification
        )
        yield* (yield* TenantSettings).setCisScheme(scheme).pipe(asMember(owner, TENANT))
        yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(owner, TENANT))
        expect((yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject(
          requested
        )
        expect(Option.isSome(yield* queue.find(tenant.id, contact.id))).toBe(true)
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a request while the contractor's own UTR is not set, naming utr, and changes nothing", () =>
    Effect.gen(function* () {
      const { contact, contacts, events, owner, queue, tenant, verifications } = yield* setUpWith({
        scheme: true,
        utr: false
      })
      const before = yield* events
      const refused = yield* Effect.flip(verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT)))
      assert(refused instanceof ValidationFailed)
      expect(Object.keys(refused.errors)).toEqual(["utr"])
      expect(refused.errors.utr?.[0]).toContain("tenant's CIS details")
      expect(yield* events).toEqual(before)
      expect(yield* queue.find(tenant.id, contact.id)).toEqual(Option.none())
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toEqual(contact.verification)
      yield* (yield* TenantSettings).setCisDetails(acme).pipe(asMember(owner, TENANT))
      expect((yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject(
        requested
      )
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a request HMRC's schema would refuse, naming the member it comes from, and changes nothing", () =>
    Effect.gen(function* () {
      const { contact, contacts, events, owner, queue, tenant, verifications } = yield* setUp
      const before = yield* events
      const refused = yield* Effect.flip(verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT)))
      assert(refused instanceof ValidationFailed)
      expect(refused.errors).toEqual({
        "cisDetails.lastName": ["HMRC's schema refuses it: the surname is not HMRC's"]
      })
      expect(yield* events).toEqual(before)
      expect(yield* queue.find(tenant.id, contact.id)).toEqual(Option.none())
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toEqual(contact.verification)
    }).pipe(
      Effect.provide(
        testAppWith(FilingCheck, (check) =>
          Effect.succeed({
            ...check,
            checkVerification: () =>
              Effect.succeed([{ line: null, element: "Sur", message: "the surname is not HMRC's" }])
          })
        )
      )
    )
  )

  it.effect(
    "refuses a contact that is not a subcontractor, or whose identity is incomplete, naming each missing member",
    () =>
      Effect.gen(function* () {
        const { contacts, events, owner, queue, tenant, verifications } = yield* setUp
        const customer = yield* contacts.create({ name: "Bo Customer", isCustomer: true }).pipe(asMember(owner, TENANT))
        const before = yield* events
        const notSub = yield* Effect.flip(verifications.request(customer.code).pipe(asMember(owner, TENANT)))
        assert(notSub instanceof Refused)
        expect(notSub.detail).toBe("BOCUSTOM is not a CIS subcontractor: only a CIS subcontractor can be verified.")
        const bare = yield* contacts
          .create({ name: "Bare", isSupplier: true, isCisSubcontractor: true })
          .pipe(asMember(owner, TENANT))
        const incomplete = yield* Effect.flip(verifications.request(bare.code).pipe(asMember(owner, TENANT)))
        assert(incomplete instanceof ValidationFailed)
        expect(incomplete.errors).toEqual({
          "cisDetails.firstName": ["Required for a SoleTrader to be verified"],
          "cisDetails.lastName": ["Required for a SoleTrader to be verified"],
          "cisDetails.utr": ["Required (or niNumber) for a SoleTrader to be verified"]
        })
        const company = yield* contacts
          .create({
            name: "Co",
            isSupplier: true,
            isCisSubcontractor: true,
            cisDetails: cis({ type: "Company", companyNumber: "SC123456" })
          })
          .pipe(asMember(owner, TENANT))
        const noName = yield* Effect.flip(verifications.request(company.code).pipe(asMember(owner, TENANT)))
        assert(noName instanceof ValidationFailed)
        expect(noName.errors).toEqual({ "cisDetails.tradingName": ["Required for a Company to be verified"] })
        expect(yield* events).toHaveLength(before.length + 4)
        expect(yield* queue.find(tenant.id, bare.id)).toEqual(Option.none())
        expect((yield* contacts.get(bare.code).pipe(asMember(owner, TENANT))).verification?.status).toBe("NotVerified")
        expect((yield* contacts.get(bare.code).pipe(asMember(owner, TENANT))).verification?.source).toBe(null)
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("an unknown contact is NotFound; a tenant the caller is not a member of refuses them (NotAMember)", () =>
    Effect.gen(function* () {
      const { verifications } = yield* setUp
      const stranger = yield* aUser("stranger@example.com")
      const owner = yield* aUser("other@example.com")
      expect(yield* Effect.flip(verifications.request("JOHNSMIT").pipe(asMember(stranger, TENANT)))).toBeInstanceOf(
        NotAMember
      )
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("other-co"), name: "Other", email: null })
        .pipe(asUser(owner))
      const notHere = yield* Effect.flip(verifications.request("JOHNSMIT").pipe(asMember(owner, "other-co")))
      assert(notHere instanceof NotFound)
      expect(notHere.detail).toBe("There is no contact with the code JOHNSMIT in other-co.")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("the worker sends the request and records the answer with contact.updated, once", () =>
    Effect.gen(function* () {
      const { authority, clock, contacts, events, owner, verifications, work } = yield* setUp
      yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
      yield* clock.advance(5_000)
      yield* authority.answerWith(() => ({ _tag: "Matched", verificationNumber: "V0000000042", taxTreatment: "Gross" }))
      expect(yield* work.workDue(10, LEASE)).toBe(1)
      const verified = yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))
      expect(verified.verification).toEqual(
        new Verification({
          status: "Verified",
          verificationNumber: "V0000000042",
          taxTreatment: "Gross",
          verifiedAt: new Date("2026-11-21T09:00:05.000Z"),
          source: "Hmrc",
          message: null
        })
      )
      expect((yield* events).at(-1)).toEqual({ type: "contact.updated", data: contactEventJson(verified) })
      expect(yield* work.workDue(10, LEASE)).toBe(0)
      expect(yield* authority.asked).toHaveLength(1)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("a refusal is recorded as Error with the authority's message, replacing a manual verification", () =>
    Effect.gen(function* () {
      const { authority, contacts, owner, verifications, work } = yield* setUp
      const manual = new Verification({
        status: "Verified",
        verificationNumber: "V1111111111",
        taxTreatment: "Net",
        verifiedAt: new Date("2026-01-01T00:00:00Z"),
        source: "Manual",
        message: null
      })
      const contact = yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))
      yield* Effect.flatMap(ContactRepo, (repo) => repo.update(new Contact({ ...contact, verification: manual })))
      yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
      yield* authority.answerWith(() => ({ _tag: "Refused", message: "No match for these details" }))
      yield* work.workDue(10, LEASE)
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject({
        status: "Error",
        verificationNumber: null,
        taxTreatment: null,
        source: "Hmrc",
        message: "No match for these details"
      })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("an authority that cannot be reached leaves the request waiting, tried again after a growing delay", () =>
    Effect.gen(function* () {
      const { authority, clock, contacts, owner, verifications, work } = yield* setUp
      yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
      yield* authority.unavailable("connect ECONNREFUSED")
      expect(yield* work.workDue(10, LEASE)).toBe(1)
      yield* clock.advance(29_999)
      expect(yield* work.workDue(10, LEASE)).toBe(0)
      yield* clock.advance(1)
      expect(yield* work.workDue(10, LEASE)).toBe(1)
      yield* clock.advance(59_999)
      expect(yield* work.workDue(10, LEASE)).toBe(0)
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject(requested)
      yield* authority.answerWith(() => ({ _tag: "Matched", verificationNumber: "V2", taxTreatment: "Net" }))
      yield* clock.advance(1)
      expect(yield* work.workDue(10, LEASE)).toBe(1)
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification?.status).toBe("Verified")
      expect(yield* authority.asked).toHaveLength(3)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("a worker that dies after claiming loses nothing: once the lease runs out another sends it", () =>
    Effect.gen(function* () {
      const { authority, clock, contacts, owner, verifications, work } = yield* setUp
      yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
      // The first worker claims and dies before it asks or records anything.
      expect(yield* work.claim(10, LEASE)).toHaveLength(1)
      yield* clock.advance(Duration.toMillis(LEASE) - 1)
      expect(yield* work.workDue(10, LEASE)).toBe(0)
      yield* clock.advance(1)
      expect(yield* work.workDue(10, LEASE)).toBe(1)
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification?.status).toBe("Verified")
      expect(yield* authority.asked).toHaveLength(1)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("an answer to a request replaced meanwhile, or for a deleted contact, is dropped", () =>
    Effect.gen(function* () {
      const { authority, clock, contacts, owner, verifications, work } = yield* setUp
      yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
      const [first] = yield* work.claim(10, LEASE)
      assert(first !== undefined)
      // A request of its own (a later one): not the one the authority holds for the first.
      yield* clock.advance(1)
      yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
      expect(yield* work.settle(first)).toBe("Dropped")
      expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject(requested)
      const [second] = yield* work.claim(10, LEASE)
      assert(second !== undefined)
      yield* contacts.remove("JOHNSMIT").pipe(asMember(owner, TENANT))
      expect(yield* work.settle(second)).toBe("Dropped")
      expect(yield* authority.asked).toHaveLength(2)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "a request is sent once and polled at its endpoint no sooner than HMRC's interval, however long HMRC takes",
    () =>
      Effect.gen(function* () {
        const { authority, clock, contacts, owner, verifications, work } = yield* setUp
        yield* authority.answerAfter(30)
        yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
        // Sent and acknowledged: not polled at once.
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect(yield* authority.asked).toHaveLength(1)
        expect(yield* authority.polledAt).toEqual([])
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject(requested)
        yield* clock.advance(29_999)
        expect(yield* work.workDue(10, LEASE)).toBe(0)
        yield* clock.advance(1)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification?.status).toBe("Verified")
        // Polled, then the answer deleted, at the endpoint HMRC named; sent once.
        expect(yield* authority.polledAt).toEqual([FAKE_RESPONSE_ENDPOINT, FAKE_RESPONSE_ENDPOINT])
        expect(yield* authority.asked).toHaveLength(1)
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "a worker that dies between HMRC's acknowledgement and its answer: the next polls the recorded endpoint, nothing is sent twice",
    () =>
      Effect.gen(function* () {
        const { authority, clock, contacts, owner, verifications, work } = yield* setUp
        yield* authority.answerAfter(30)
        yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
        const [claimed] = yield* work.claim(10, LEASE)
        assert(claimed !== undefined)
        // The worker sends and records the acknowledgement, then dies before settling its lease.
        expect(yield* work.attempt(claimed)).toMatchObject({ pollAt: new Date(Date.parse("2026-11-21T09:00:30.000Z")) })
        yield* clock.advance(Duration.toMillis(LEASE) - 1)
        expect(yield* work.workDue(10, LEASE)).toBe(0)
        yield* clock.advance(1)
        // Another worker (another process, after a restart) takes it over: it polls, it does not send.
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification?.status).toBe("Verified")
        expect(yield* authority.asked).toHaveLength(1)
        expect(yield* authority.polledAt).toEqual([FAKE_RESPONSE_ENDPOINT, FAKE_RESPONSE_ENDPOINT])
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "a verification whose correlation id HMRC no longer knows and records nothing of is sent again once; a second 2000 holds it, the contact saying so, until it is verified again",
    () =>
      Effect.gen(function* () {
        const { authority, clock, contacts, owner, verifications, work } = yield* setUp
        yield* authority.answerAfter(30)
        yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        yield* clock.advance(30_000)
        yield* authority.forgetAll
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect(yield* authority.dataRequestCount).toBe(1)
        // Sent again, at once.
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect(yield* authority.asked).toHaveLength(2)
        yield* clock.advance(30_000)
        yield* authority.forgetAll
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        const held = (yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification
        expect(held).toMatchObject({ status: "NotVerified", source: "Hmrc" })
        expect(held?.message).toContain("HMRC's answer to this verification is unknown")
        expect(held?.message).toContain("verify the subcontractor again")
        // Nothing more by itself: no third sending, no second data request.
        yield* clock.advance(Duration.toMillis(Duration.days(1)))
        expect(yield* work.workDue(10, LEASE)).toBe(0)
        expect(yield* authority.dataRequestCount).toBe(1)
        expect(yield* authority.asked).toHaveLength(2)
        // Verified again by a person: a new request, sent and answered.
        yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        yield* clock.advance(30_000)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification?.status).toBe("Verified")
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "HMRC's refusal of credentials replaced since the verification was sent sends it again with the new ones, marking nothing Refused; HMRC's answer marks them Accepted",
    () =>
      Effect.gen(function* () {
        const { authority, clock, contacts, owner, verifications, work } = yield* setUp
        const settings = yield* HmrcCredentialsSettings
        const status = Effect.map(
          settings.get().pipe(asMember(owner, TENANT)),
          Option.map((c) => c.status)
        )
        yield* authority.answerAfter(30)
        yield* authority.authenticateAtPoll
        yield* settings.set({ gatewayUserId: "WRONG1", password: "refused" }).pipe(asMember(owner, TENANT))
        yield* verifications.request("JOHNSMIT").pipe(asMember(owner, TENANT))
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        yield* clock.advance(1000)
        yield* settings.set({ gatewayUserId: "RIGHT1", password: "good" }).pipe(asMember(owner, TENANT))
        yield* clock.advance(30_000)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect(yield* status).toEqual(Option.some("Unchecked"))
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification).toMatchObject(requested)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect(yield* authority.sentBy).toEqual(["WRONG1", "RIGHT1"])
        // Acknowledged: not yet Accepted.
        expect(yield* status).toEqual(Option.some("Unchecked"))
        yield* clock.advance(30_000)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* contacts.get("JOHNSMIT").pipe(asMember(owner, TENANT))).verification?.status).toBe("Verified")
        expect(yield* status).toEqual(Option.some("Accepted"))
      }).pipe(Effect.provide(testApp()))
  )
})
