import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { otherCisScheme, sampleCisScheme } from "@cisbook/testkit/CisSchemeFixtures"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { FAKE_RESPONSE_ENDPOINT, TaxAuthorityFake } from "@cisbook/testkit/TaxAuthorityFake"
import { assert, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { Contact, notVerified, Verification } from "../../src/contacts/Contact.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { HmrcCredentialsSettings } from "../../src/credentials/HmrcCredentialsSettings.js"
import { Refused } from "../../src/Errors.js"
import { EmailSettings } from "../../src/mail/EmailSettings.js"
import { EmailSettingsRepo } from "../../src/mail/EmailSettingsRepo.js"
import { monthlyReturnEventData } from "../../src/returns/MonthlyReturnEventData.js"
import { MonthlyReturns } from "../../src/returns/MonthlyReturns.js"
import { ReturnFiling } from "../../src/returns/ReturnFiling.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { Verifications } from "../../src/verification/Verifications.js"
import { VerificationWork } from "../../src/verification/VerificationWork.js"
import { outboxMails } from "../mail/OutboxMails.js"
import { asMember, asUser, aUser, plainCis, testApp } from "../TestApp.js"
import { allDeclared, nilDeclared } from "@cisbook/testkit/DeclarationsFixtures"

const TENANT = "lovelace-builders"
const LEASE = Duration.minutes(1)
const seconds = (n: number) => Duration.toMillis(Duration.seconds(n))

const app = Layer.provideMerge(ReturnFiling.Default, testApp()).pipe(Layer.provide(DocumentRendererFake))

/** Every log line written, warnings and up, with its annotations (logfmt). */
const logged: Array<string> = []
const capturedLogs = Layer.merge(
  Logger.replace(
    Logger.defaultLogger,
    Logger.map(Logger.logfmtLogger, (line) => void logged.push(line))
  ),
  Logger.minimumLogLevel(LogLevel.Warning)
)

/**
 * A contractor with its CIS details, its scheme and Government Gateway credentials, statements
 * mailed automatically, and a verified subcontractor with an email address (BRICKS) and one to
 * verify (STONES). HMRC's acknowledgements name a PollInterval of 30 s, unless `interval` says.
 */
const contractor = (interval = 30) =>
  Effect.gen(function* () {
    const owner = yield* aUser("owner@example.com")
    const { tenant } = yield* (yield* Tenants)
      .create({ code: TenantCode.make(TENANT), name: "Lovelace", email: null })
      .pipe(asUser(owner))
    const settings = yield* TenantSettings
    yield* settings
      .setCisDetails({ type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" })
      .pipe(asMember(owner, TENANT))
    yield* settings.setCisScheme(sampleCisScheme).pipe(asMember(owner, TENANT))
    yield* (yield* HmrcCredentialsSettings)
      .set({ gatewayUserId: "LOVELACE1", password: "good" })
      .pipe(asMember(owner, TENANT))
    yield* (yield* EmailSettingsRepo).setSettings(
      tenant.id,
      new EmailSettings({ signature: null, autoEmailStatements: true })
    )
    const contacts = yield* Contacts
    const subcontractor = (name: string, utr: string) =>
      contacts
        .create({
          name,
          email: `${name.toLowerCase()}@example.com`,
          isSupplier: true,
          isCisSubcontractor: true,
          cisDetails: plainCis({ type: "Company", tradingName: name, utr })
        })
        .pipe(asMember(owner, TENANT))
    const bricks = yield* subcontractor("Bricks", "2234567890")
    yield* (yield* ContactRepo).update(
      new Contact({
        ...bricks,
        verification: new Verification({ ...notVerified, status: "Verified", taxTreatment: "Net", source: "Hmrc" })
      })
    )
    yield* subcontractor("Stones", "4345678912")
    yield* (yield* TaxAuthorityFake).answerAfter(interval)
    const returns = yield* MonthlyReturns
    const filed = yield* returns
      .file({
        declarations: allDeclared,
        periodEnd: "2026-06-05",
        lines: [{ contact: "BRICKS", grossAmount: 100000, materials: 0, deducted: 20000 }]
      })
      .pipe(asMember(owner, TENANT))
    const filing = yield* ReturnFiling
    const clock = yield* ManualClock
    return {
      owner,
      tenant,
      filed,
      fake: yield* TaxAuthorityFake,
      /** Files what is due now; how many returns were due. */
      fileDue: filing.fileDue(10, LEASE),
      advance: (millis: number) => clock.advance(millis),
      current: returns.get(filed.id).pipe(asMember(owner, TENANT)),
      credentialsStatus: Effect.map(
        (yield* HmrcCredentialsSettings).get().pipe(asMember(owner, TENANT)),
        Option.map((c) => c.status)
      )
    }
  })

describe("ReturnFiling: HMRC's answers at a poll", () => {
  it.effect(
    "a business error at the poll is final: Rejected with every error's text, its answer deleted, HMRC's data request never asked",
    () =>
      Effect.gen(function* () {
        const { advance, current, fake, fileDue, filed, owner } = yield* contractor()
        const rejected = yield* (yield* MonthlyReturns)
          .file({
            declarations: allDeclared,
            periodEnd: "2026-05-05",
            lines: [{ contact: "BRICKS", grossAmount: 600000, materials: 100000, deducted: 99999 }]
          })
          .pipe(asMember(owner, TENANT))
        expect(yield* fileDue).toBe(2)
        yield* advance(seconds(30))
        expect(yield* fileDue).toBe(2)
        const answer = yield* (yield* MonthlyReturns).get(rejected.id).pipe(asMember(owner, TENANT))
        expect(answer).toMatchObject({ status: "Rejected", heldReason: null })
        expect(answer.rejectionReason).toBe(
          "The total deducted (£999.99) does not agree with the payments made. (3301)"
        )
        expect((yield* current).status).toBe("Accepted")
        expect(yield* fake.dataRequestCount).toBe(0)
        // Sent once each, polled once each, and both answers deleted where they were polled.
        expect(yield* fake.sentBy).toEqual(["LOVELACE1", "LOVELACE1"])
        expect(yield* fake.polledAt).toEqual(Array(4).fill(FAKE_RESPONSE_ENDPOINT))
        expect(filed.id).not.toBe(rejected.id)
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "a recoverable error at the poll (HMRC failed the submission): sent afresh once its retry delay passed, the failed answer deleted",
    () =>
      Effect.gen(function* () {
        const { advance, current, fake, fileDue } = yield* contractor(0)
        yield* fake.nextPolls({
          _tag: "Failed",
          reason: "The processing of your document submission failed. Please re-submit (3000)"
        })
        expect(yield* fileDue).toBe(1)
        expect(yield* current).toMatchObject({ status: "Submitted", rejectionReason: null })
        expect(yield* fake.sentBy).toHaveLength(1)
        // The failed submission's answer was deleted: polled once, deleted once.
        expect(yield* fake.polledAt).toHaveLength(2)
        yield* advance(seconds(29))
        expect(yield* fileDue).toBe(0)
        yield* advance(seconds(1))
        expect(yield* fileDue).toBe(1)
        expect(yield* fake.sentBy).toHaveLength(2)
        expect((yield* current).status).toBe("Accepted")
        expect(yield* fake.dataRequestCount).toBe(0)
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "a poll answered with a new acknowledgement is asked again no sooner than its PollInterval, at the endpoint it names",
    () =>
      Effect.gen(function* () {
        const { advance, current, fake, fileDue } = yield* contractor(10)
        expect(yield* fileDue).toBe(1)
        // Not before HMRC's interval.
        yield* advance(seconds(9))
        expect(yield* fileDue).toBe(0)
        yield* advance(seconds(1))
        const next = "memory://tax-authority/response/2"
        yield* fake.nextPolls({ _tag: "Acknowledge", endpoint: next, pollIntervalSeconds: 60 })
        expect(yield* fileDue).toBe(1)
        expect((yield* current).status).toBe("Submitted")
        yield* advance(seconds(59))
        expect(yield* fileDue).toBe(0)
        yield* advance(seconds(1))
        expect(yield* fileDue).toBe(1)
        expect((yield* current).status).toBe("Accepted")
        // Polled at the endpoint the acknowledgement named, and the answer deleted there.
        expect(yield* fake.polledAt).toEqual([FAKE_RESPONSE_ENDPOINT, next, next])
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "HMRC no longer knowing the correlation id (2000) while its data request records it: polled again at the recorded endpoint; a second 2000 holds the return until a person releases it",
    () =>
      Effect.gen(function* () {
        const { advance, current, fake, fileDue, owner } = yield* contractor()
        expect(yield* fileDue).toBe(1)
        yield* advance(seconds(30))
        yield* fake.nextPolls({ _tag: "Unknown" })
        expect(yield* fileDue).toBe(1)
        expect(yield* fake.dataRequestCount).toBe(1)
        expect((yield* current).status).toBe("Submitted")
        // Recorded at HMRC: polled again after the recorded interval, at the recorded endpoint, not sent again.
        yield* advance(seconds(29))
        expect(yield* fileDue).toBe(0)
        yield* advance(seconds(1))
        yield* fake.nextPolls({ _tag: "Unknown" })
        expect(yield* fileDue).toBe(1)
        const held = yield* current
        expect(held).toMatchObject({ status: "Held", heldFor: "UnknownAnswer", rejectionReason: null })
        expect(held.heldReason).toContain("HMRC's answer to this return is unknown")
        expect(held.heldReason).toContain("returns release")
        expect(yield* fake.dataRequestCount).toBe(1)
        expect(yield* fake.sentBy).toHaveLength(1)
        // Never sent or polled again by itself, however long, nor by new credentials.
        yield* advance(Duration.toMillis(Duration.days(3)))
        yield* (yield* HmrcCredentialsSettings)
          .set({ gatewayUserId: "LOVELACE2", password: "good" })
          .pipe(asMember(owner, TENANT))
        expect(yield* fileDue).toBe(0)
        expect((yield* current).status).toBe("Held")
        // Released by a person: sent afresh, once, and accepted.
        const released = yield* (yield* MonthlyReturns).release(held.id).pipe(asMember(owner, TENANT))
        expect(released).toMatchObject({ status: "Submitted", heldReason: null, heldFor: null })
        expect(yield* fileDue).toBe(1)
        yield* advance(seconds(30))
        expect(yield* fileDue).toBe(1)
        expect((yield* current).status).toBe("Accepted")
        expect(yield* fake.sentBy).toEqual(["LOVELACE1", "LOVELACE2"])
        // Only a return so held is released.
        const refused = yield* Effect.flip((yield* MonthlyReturns).release(held.id).pipe(asMember(owner, TENANT)))
        expect(refused).toBeInstanceOf(Refused)
        expect(refused.message).toContain("is Accepted")
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "HMRC holding nothing of it (2000, and no record in its data request): sent again, once; a second 2000 after the resubmission holds it",
    () =>
      Effect.gen(function* () {
        const { advance, current, fake, fileDue } = yield* contractor()
        expect(yield* fileDue).toBe(1)
        yield* advance(seconds(30))
        yield* fake.forgetAll
        expect(yield* fileDue).toBe(1)
        expect(yield* fake.dataRequestCount).toBe(1)
        // Sent again at once.
        expect(yield* fileDue).toBe(1)
        expect(yield* fake.sentBy).toHaveLength(2)
        yield* advance(seconds(30))
        yield* fake.forgetAll
        expect(yield* fileDue).toBe(1)
        const held = yield* current
        expect(held).toMatchObject({ status: "Held", heldFor: "UnknownAnswer" })
        expect(held.heldReason).toContain("it was sent again")
        // No second data request, no third sending.
        expect(yield* fake.dataRequestCount).toBe(1)
        expect(yield* fake.sentBy).toHaveLength(2)
        yield* advance(Duration.toMillis(Duration.days(1)))
        expect(yield* fileDue).toBe(0)
      }).pipe(Effect.provide(app))
  )

  it.effect("a data request HMRC refuses holds the return: HMRC's answer is unknown", () =>
    Effect.gen(function* () {
      const { advance, current, fake, fileDue } = yield* contractor()
      expect(yield* fileDue).toBe(1)
      yield* advance(seconds(30))
      yield* fake.nextPolls({ _tag: "Unknown" })
      yield* fake.dataRequests({ _tag: "Refused", reason: "Authentication Failure. (1046)" })
      expect(yield* fileDue).toBe(1)
      const held = yield* current
      expect(held).toMatchObject({ status: "Held", heldFor: "UnknownAnswer" })
      expect(held.heldReason).toContain("refused its data request (Authentication Failure. (1046))")
      // Held for an unknown answer, the credentials are not marked: HMRC refused nothing sent with them.
      expect(yield* fake.sentBy).toHaveLength(1)
    }).pipe(Effect.provide(app))
  )

  it.effect("a data request that goes unanswered, after the transport's retries, holds the return", () =>
    Effect.gen(function* () {
      const { advance, current, fake, fileDue } = yield* contractor()
      expect(yield* fileDue).toBe(1)
      yield* advance(seconds(30))
      yield* fake.nextPolls({ _tag: "Unknown" })
      yield* fake.dataRequests({ _tag: "Unavailable" })
      expect(yield* fileDue).toBe(1)
      const held = yield* current
      expect(held).toMatchObject({ status: "Held", heldFor: "UnknownAnswer" })
      expect(held.heldReason).toContain("HMRC's data request went unanswered")
    }).pipe(Effect.provide(app))
  )
})

describe("ReturnFiling: the credentials a return was sent with", () => {
  it.effect(
    "HMRC's refusal of credentials replaced between sending and polling sends the return again with the new ones: nothing held, nothing marked Refused",
    () =>
      Effect.gen(function* () {
        const { advance, credentialsStatus, current, fake, fileDue, owner } = yield* contractor()
        yield* fake.authenticateAtPoll
        const settings = yield* HmrcCredentialsSettings
        yield* settings.set({ gatewayUserId: "WRONG1", password: "refused" }).pipe(asMember(owner, TENANT))
        expect(yield* fileDue).toBe(1)
        expect(yield* fake.sentBy).toEqual(["WRONG1"])
        // Replaced before HMRC's answer (its 1046) to what went with the old ones is polled.
        yield* advance(1000)
        yield* settings.set({ gatewayUserId: "RIGHT1", password: "good" }).pipe(asMember(owner, TENANT))
        yield* advance(seconds(30))
        expect(yield* fileDue).toBe(1)
        expect(yield* current).toMatchObject({ status: "Submitted", heldReason: null })
        expect(yield* credentialsStatus).toEqual(Option.some("Unchecked"))
        expect(yield* fileDue).toBe(1)
        expect(yield* fake.sentBy).toEqual(["WRONG1", "RIGHT1"])
        yield* advance(seconds(30))
        expect(yield* fileDue).toBe(1)
        expect((yield* current).status).toBe("Accepted")
        expect(yield* credentialsStatus).toEqual(Option.some("Accepted"))
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "credentials are Accepted on HMRC's final response, not on its acknowledgement; refused at the poll, the ones sent with are Refused",
    () =>
      Effect.gen(function* () {
        const { advance, credentialsStatus, current, fake, fileDue, owner } = yield* contractor()
        expect(yield* fileDue).toBe(1)
        expect(yield* credentialsStatus).toEqual(Option.some("Unchecked"))
        yield* advance(seconds(30))
        expect(yield* fileDue).toBe(1)
        expect((yield* current).status).toBe("Accepted")
        expect(yield* credentialsStatus).toEqual(Option.some("Accepted"))
        // Refused after an acknowledgement: those very credentials are Refused, the return held for them.
        yield* fake.authenticateAtPoll
        yield* (yield* HmrcCredentialsSettings)
          .set({ gatewayUserId: "WRONG1", password: "refused" })
          .pipe(asMember(owner, TENANT))
        const july = yield* (yield* MonthlyReturns)
          .file({ declarations: nilDeclared, periodEnd: "2026-07-05", nilReturn: true })
          .pipe(asMember(owner, TENANT))
        expect(yield* fileDue).toBe(1)
        expect(yield* credentialsStatus).toEqual(Option.some("Unchecked"))
        yield* advance(seconds(30))
        expect(yield* fileDue).toBe(1)
        expect(yield* credentialsStatus).toEqual(Option.some("Refused"))
        const held = yield* (yield* MonthlyReturns).get(july.id).pipe(asMember(owner, TENANT))
        expect(held).toMatchObject({ status: "Held", heldFor: "Credentials" })
        expect(held.heldReason).toContain("1046")
      }).pipe(Effect.provide(app))
  )

  it.effect(
    "a 1046 caused by the employer reference is released by correcting the CIS scheme registration: the return and the verification sent again under it",
    () =>
      Effect.gen(function* () {
        const { credentialsStatus, current, fake, fileDue, owner } = yield* contractor(0)
        // The Government Gateway account is enrolled for another PAYE scheme than the one registered.
        yield* fake.enrolledFor([otherCisScheme.employerReference])
        expect(yield* fileDue).toBe(1)
        yield* (yield* Verifications).request("STONES").pipe(asMember(owner, TENANT))
        expect(yield* (yield* VerificationWork).workDue(10, LEASE)).toBe(1)
        expect(yield* current).toMatchObject({ status: "Held", heldFor: "Credentials" })
        expect(yield* credentialsStatus).toEqual(Option.some("Refused"))
        const waiting = yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))
        expect(waiting.verification?.status).toBe("NotVerified")
        // The same scheme again corrects nothing: nothing is released.
        const settings = yield* TenantSettings
        yield* settings.setCisScheme(sampleCisScheme).pipe(asMember(owner, TENANT))
        expect((yield* current).status).toBe("Held")
        // Corrected: released under the corrected scheme, the credentials no longer taken as refused.
        yield* settings.setCisScheme(otherCisScheme).pipe(asMember(owner, TENANT))
        expect(yield* current).toMatchObject({ status: "Submitted", heldReason: null })
        expect((yield* current).contractor.scheme).toEqual(otherCisScheme)
        expect(yield* credentialsStatus).toEqual(Option.some("Unchecked"))
        expect(yield* fileDue).toBe(1)
        expect(yield* (yield* VerificationWork).workDue(10, LEASE)).toBe(1)
        expect((yield* current).status).toBe("Accepted")
        const verified = yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))
        expect(verified.verification?.status).toBe("Verified")
        expect(yield* credentialsStatus).toEqual(Option.some("Accepted"))
      }).pipe(Effect.provide(app))
  )
})

describe("ReturnFiling: what HMRC's answer records", () => {
  it.effect("test in live (GatewayTest): the return records gatewayTest, is never billed, mails no statement", () =>
    Effect.gen(function* () {
      const { current, fake, fileDue, filed, owner } = yield* contractor(0)
      yield* fake.gatewayTest(true)
      expect(yield* fileDue).toBe(1)
      const tested = yield* current
      expect(tested).toMatchObject({ status: "Accepted", gatewayTest: true })
      expect(monthlyReturnEventData(tested).gatewayTest).toBe(true)
      expect(yield* outboxMails).toEqual([])
      expect(yield* (yield* BillingInvoiceRepo).usage(owner.id)).toEqual([])
      // Sent for real, the next month's is billed and mails its statement.
      yield* fake.gatewayTest(false)
      const july = yield* (yield* MonthlyReturns)
        .file({
          declarations: allDeclared,
          periodEnd: "2026-07-05",
          lines: [{ contact: "BRICKS", grossAmount: 100000, materials: 0, deducted: 20000 }]
        })
        .pipe(asMember(owner, TENANT))
      expect(yield* fileDue).toBe(1)
      const real = yield* (yield* MonthlyReturns).get(july.id).pipe(asMember(owner, TENANT))
      expect(real).toMatchObject({ status: "Accepted", gatewayTest: false })
      expect((yield* (yield* BillingInvoiceRepo).usage(owner.id)).map((u) => u.returnId)).toEqual([july.id])
      expect((yield* outboxMails).map((m) => m.type)).toEqual(["CisStatement"])
      expect(filed.id).not.toBe(july.id)
    }).pipe(Effect.provide(app))
  )

  it.effect(
    "HMRC's receipt names the IRmark sent (irmarkVerified), or another: still Accepted, irmarkVerified false, a warning logged",
    () =>
      Effect.gen(function* () {
        const { current, fake, fileDue, owner } = yield* contractor(0)
        expect(yield* fileDue).toBe(1)
        const verified = yield* current
        assert(verified.hmrcReceipt !== null)
        expect(verified.hmrcReceipt.irmarkVerified).toBe(true)
        expect(monthlyReturnEventData(verified).hmrcReceipt?.irmarkVerified).toBe(true)
        logged.length = 0
        yield* fake.receiptNames("SOME/OTHER/IRMARK=")
        const july = yield* (yield* MonthlyReturns)
          .file({ declarations: nilDeclared, periodEnd: "2026-07-05", nilReturn: true })
          .pipe(asMember(owner, TENANT))
        expect(yield* fileDue).toBe(1)
        const other = yield* (yield* MonthlyReturns).get(july.id).pipe(asMember(owner, TENANT))
        expect(other.status).toBe("Accepted")
        expect(other.hmrcReceipt).toMatchObject({ irmarkVerified: false, irmark: `FAKE-IRMARK-${july.id}` })
        const warning = logged.find((line) => line.includes("names another IRmark"))
        expect(warning).toContain("SOME/OTHER/IRMARK=")
        expect(warning).toContain("level=WARN")
      }).pipe(Effect.provide(app), Effect.provide(capturedLogs))
  )
})
