import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { TaxAuthorityFake } from "@cisbook/testkit/TaxAuthorityFake"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { Contact, notVerified, Verification } from "../../src/contacts/Contact.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { HmrcCredentialsRepo } from "../../src/credentials/HmrcCredentialsRepo.js"
import { HmrcCredentialsSettings } from "../../src/credentials/HmrcCredentialsSettings.js"
import { Forbidden, ValidationFailed } from "../../src/Errors.js"
import { MonthlyReturns } from "../../src/returns/MonthlyReturns.js"
import { ReturnFiling } from "../../src/returns/ReturnFiling.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { Verifications } from "../../src/verification/Verifications.js"
import { VerificationWork } from "../../src/verification/VerificationWork.js"
import { asMember, asUser, aUser, plainCis, testApp } from "../TestApp.js"

const TENANT = "lovelace-builders"
const OTHER = "babbage-builds"
const LEASE = Duration.minutes(1)
const SECRET = "Tr0ub4dor-not-refused"

const app = Layer.provideMerge(ReturnFiling.Default, testApp()).pipe(Layer.provide(DocumentRendererFake))

/** A contractor with its CIS details and scheme, a verified subcontractor (BRICKS) and one to verify (STONES). */
const contractor = (code: string, email: string) =>
  Effect.gen(function* () {
    const owner = yield* aUser(email)
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make(code),
        name: "Builders",
        email: null
      })
      .pipe(asUser(owner))
    const settings = yield* TenantSettings
    yield* settings
      .setCisDetails({ type: "Company", tradingName: "Builders Ltd", utr: "8456789123" })
      .pipe(asMember(owner, code))
    yield* settings
      .setCisScheme({
        employerReference: "123/AB45678",
        accountsOfficeReference: "123PW12345678"
      })
      .pipe(asMember(owner, code))
    const contacts = yield* Contacts
    const subcontractor = (name: string, utr: string) =>
      contacts
        .create({
          name,
          isSupplier: true,
          isCisSubcontractor: true,
          cisDetails: plainCis({ type: "Company", tradingName: name, utr })
        })
        .pipe(asMember(owner, code))
    const bricks = yield* subcontractor("Bricks", "2234567890")
    yield* (yield* ContactRepo).update(
      new Contact({
        ...bricks,
        verification: new Verification({
          ...notVerified,
          status: "Verified",
          taxTreatment: "Net",
          verificationNumber: "V1234567890",
          source: "Hmrc"
        })
      })
    )
    yield* subcontractor("Stones", "4345678912")
    return { owner, tenant }
  })

const aReturn = (periodEnd: string) => ({
  periodEnd,
  declarations: allDeclared,
  lines: [{ contact: "BRICKS", grossAmount: 100000, materials: 0, deducted: 20000 }]
})

/** Every log line written, debug and up, with its annotations (logfmt). */
const logged: Array<string> = []
const capturedLogs = Layer.merge(
  Logger.replace(
    Logger.defaultLogger,
    Logger.map(Logger.logfmtLogger, (line) => void logged.push(line))
  ),
  Logger.minimumLogLevel(LogLevel.All)
)

describe("HMRC credentials", () => {
  it.effect("a return or verification asked for without them is refused naming hmrcCredentials", () =>
    Effect.gen(function* () {
      const { owner } = yield* contractor(TENANT, "owner@example.com")
      const refused = yield* Effect.flip(
        (yield* MonthlyReturns).file(aReturn("2026-06-05")).pipe(asMember(owner, TENANT))
      )
      expect(refused).toBeInstanceOf(ValidationFailed)
      expect(Object.keys((refused as ValidationFailed).errors)).toEqual(["hmrcCredentials"])
      const verification = yield* Effect.flip((yield* Verifications).request("STONES").pipe(asMember(owner, TENANT)))
      expect(Object.keys((verification as ValidationFailed).errors)).toEqual(["hmrcCredentials"])
      expect(yield* (yield* MonthlyReturns).list().pipe(asMember(owner, TENANT))).toEqual([])
    }).pipe(Effect.provide(app))
  )

  it.effect("are an Owner's: a Member is refused; the password is never shown", () =>
    Effect.gen(function* () {
      const { owner, tenant } = yield* contractor(TENANT, "owner@example.com")
      const member = yield* aUser("member@example.com")
      yield* (yield* Tenants).addMember({ email: member.email, role: "Member" }).pipe(asMember(owner, TENANT))
      const settings = yield* HmrcCredentialsSettings
      const view = yield* settings
        .set({
          gatewayUserId: "123456789012",
          password: SECRET,
          filer: "Agent"
        })
        .pipe(asMember(owner, TENANT))
      expect(view).toMatchObject({ gatewayUserId: "123456789012", filer: "Agent", status: "Unchecked" })
      expect(JSON.stringify(view)).not.toContain(SECRET)
      expect(yield* Effect.flip(settings.get().pipe(asMember(member, TENANT)))).toBeInstanceOf(Forbidden)
      expect(
        yield* Effect.flip(settings.set({ gatewayUserId: "x", password: "y" }).pipe(asMember(member, TENANT)))
      ).toBeInstanceOf(Forbidden)
      expect(yield* Effect.flip(settings.remove().pipe(asMember(member, TENANT)))).toBeInstanceOf(Forbidden)
      // The stored credentials print redacted, whatever logs or traces them.
      const stored = yield* (yield* HmrcCredentialsRepo).find(tenant.id)
      expect(String(Option.getOrThrow(stored).credentials.password)).not.toContain(SECRET)
      expect(JSON.stringify(Option.getOrThrow(stored))).not.toContain(SECRET)
    }).pipe(Effect.provide(app))
  )

  it.effect(
    "refused by HMRC: the return is Held, not Rejected, nothing more of the tenant is sent, a PUT sends it all again",
    () =>
      Effect.gen(function* () {
        const { owner, tenant } = yield* contractor(TENANT, "owner@example.com")
        const other = yield* contractor(OTHER, "other@example.com")
        const settings = yield* HmrcCredentialsSettings
        const returns = yield* MonthlyReturns
        const filing = yield* ReturnFiling
        const work = yield* VerificationWork
        const fake = yield* TaxAuthorityFake
        const clock = yield* ManualClock
        yield* settings.set({ gatewayUserId: "WRONG1", password: "refused" }).pipe(asMember(owner, TENANT))
        yield* settings.set({ gatewayUserId: "BABBAGE", password: "good" }).pipe(asMember(other.owner, OTHER))

        const june = yield* returns.file(aReturn("2026-06-05")).pipe(asMember(owner, TENANT))
        const theirs = yield* returns.file(aReturn("2026-06-05")).pipe(asMember(other.owner, OTHER))
        expect(yield* filing.fileDue(10, LEASE)).toBe(2)
        const held = yield* returns.get(june.id).pipe(asMember(owner, TENANT))
        expect(held).toMatchObject({ status: "Held", rejectionReason: null, acceptedAt: null })
        expect(held.heldReason).toContain("1046")
        expect((yield* returns.get(theirs.id).pipe(asMember(other.owner, OTHER))).status).toBe("Accepted")
        expect(Option.map(yield* settings.get().pipe(asMember(owner, TENANT)), (c) => c.status)).toEqual(
          Option.some("Refused")
        )
        expect(Option.map(yield* settings.get().pipe(asMember(other.owner, OTHER)), (c) => c.status)).toEqual(
          Option.some("Accepted")
        )
        // Each tenant's messages went with its own credentials: the refused ones were tried once.
        expect(yield* fake.sentBy).toEqual(["BABBAGE"])
        // A Held return is still the month's live return.
        expect(yield* Effect.flip(returns.file(aReturn("2026-06-05")).pipe(asMember(owner, TENANT)))).toMatchObject({
          _tag: "Conflict"
        })

        // Nothing else of the tenant is sent while they stand refused: the next return and a verification wait.
        const july = yield* returns.file(aReturn("2026-07-05")).pipe(asMember(owner, TENANT))
        yield* (yield* Verifications).request("STONES").pipe(asMember(owner, TENANT))
        expect(yield* filing.fileDue(10, LEASE)).toBe(1)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* returns.get(july.id).pipe(asMember(owner, TENANT))).status).toBe("Held")
        const waiting = yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))
        expect(waiting.verification).toMatchObject({ status: "NotVerified", source: "Hmrc" })
        expect(waiting.verification?.message).toContain("credentials")
        expect(yield* fake.sentBy).toEqual(["BABBAGE"])
        yield* clock.advance(Duration.toMillis(Duration.days(2)))
        expect(yield* filing.fileDue(10, LEASE)).toBe(0)
        expect(yield* work.workDue(10, LEASE)).toBe(0)

        // New credentials: everything held is sent again with them, once.
        yield* clock.advance(1000)
        const replaced = yield* settings
          .set({ gatewayUserId: "RIGHT1", password: SECRET })
          .pipe(asMember(owner, TENANT))
        expect(replaced.status).toBe("Unchecked")
        expect((yield* returns.get(june.id).pipe(asMember(owner, TENANT))).status).toBe("Submitted")
        expect((yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))).verification?.message).toBe(
          "Verification requested"
        )
        expect(yield* filing.fileDue(10, LEASE)).toBe(2)
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* returns.get(june.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
        expect((yield* returns.get(july.id).pipe(asMember(owner, TENANT))).heldReason).toBeNull()
        expect((yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))).verification?.status).toBe(
          "Verified"
        )
        expect(Option.map(yield* settings.get().pipe(asMember(owner, TENANT)), (c) => c.status)).toEqual(
          Option.some("Accepted")
        )
        expect([...(yield* fake.sentBy)].sort()).toEqual(["BABBAGE", "RIGHT1", "RIGHT1", "RIGHT1"])
        // No event carries a password, nor any log line (the refusal was logged, with HMRC's words).
        const events = yield* Effect.flatMap(RecordedEvents, (recorded) => recorded.list(tenant.id))
        expect(JSON.stringify(events)).not.toContain(SECRET)
        expect(logged.join("\n")).toContain("1046")
        expect(logged.join("\n")).not.toContain(SECRET)
      }).pipe(Effect.provide(app), Effect.provide(capturedLogs))
  )

  it.effect(
    "refused at the poll (HMRC authenticating after it acknowledged): the return and the verification are Held, then sent afresh with the new credentials",
    () =>
      Effect.gen(function* () {
        const { owner } = yield* contractor(TENANT, "owner@example.com")
        const settings = yield* HmrcCredentialsSettings
        const returns = yield* MonthlyReturns
        const filing = yield* ReturnFiling
        const work = yield* VerificationWork
        const fake = yield* TaxAuthorityFake
        const clock = yield* ManualClock
        yield* fake.authenticateAtPoll
        const status = Effect.map(
          settings.get().pipe(asMember(owner, TENANT)),
          Option.map((c) => c.status)
        )
        yield* settings.set({ gatewayUserId: "WRONG1", password: "refused" }).pipe(asMember(owner, TENANT))
        const june = yield* returns.file(aReturn("2026-06-05")).pipe(asMember(owner, TENANT))

        // Acknowledged; its poll answered 1046: held, neither rejected nor polled again while they stand refused.
        expect(yield* filing.fileDue(10, LEASE)).toBe(1)
        expect(yield* fake.sentBy).toEqual(["WRONG1"])
        const held = yield* returns.get(june.id).pipe(asMember(owner, TENANT))
        expect(held).toMatchObject({ status: "Held", rejectionReason: null, hmrcReceipt: null })
        expect(held.heldReason).toContain("1046")
        expect(yield* status).toEqual(Option.some("Refused"))
        yield* clock.advance(Duration.toMillis(Duration.days(1)))
        expect(yield* filing.fileDue(10, LEASE)).toBe(0)

        // Replaced: HMRC took nothing of it, so it is sent once more, with the new credentials, and accepted.
        yield* settings.set({ gatewayUserId: "RIGHT1", password: SECRET }).pipe(asMember(owner, TENANT))
        expect(yield* filing.fileDue(10, LEASE)).toBe(1)
        expect(yield* fake.sentBy).toEqual(["WRONG1", "RIGHT1"])
        const accepted = yield* returns.get(june.id).pipe(asMember(owner, TENANT))
        expect(accepted).toMatchObject({ status: "Accepted", heldReason: null })
        expect(accepted.hmrcReceipt?.irmark).not.toBe("")
        expect(yield* status).toEqual(Option.some("Accepted"))

        // The same for a verification: held at its poll, the contact NotVerified saying why; sent afresh once replaced.
        yield* clock.advance(1000)
        yield* settings.set({ gatewayUserId: "WRONG2", password: "refused" }).pipe(asMember(owner, TENANT))
        yield* (yield* Verifications).request("STONES").pipe(asMember(owner, TENANT))
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        const waiting = yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))
        expect(waiting.verification).toMatchObject({ status: "NotVerified", source: "Hmrc" })
        expect(waiting.verification?.message).toContain("1046")
        expect(yield* status).toEqual(Option.some("Refused"))
        yield* clock.advance(Duration.toMillis(Duration.days(1)))
        expect(yield* work.workDue(10, LEASE)).toBe(0)
        yield* settings.set({ gatewayUserId: "RIGHT2", password: SECRET }).pipe(asMember(owner, TENANT))
        expect(yield* work.workDue(10, LEASE)).toBe(1)
        expect((yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))).verification?.status).toBe(
          "Verified"
        )
        expect(yield* fake.sentBy).toEqual(["WRONG1", "RIGHT1", "WRONG2", "RIGHT2"])
        expect(yield* status).toEqual(Option.some("Accepted"))
      }).pipe(Effect.provide(app))
  )

  it.effect("a verification started by taking a subcontractor on without them ends Error saying to set them", () =>
    Effect.gen(function* () {
      const { owner, tenant } = yield* contractor(TENANT, "owner@example.com")
      const stones = yield* (yield* Contacts).get("STONES").pipe(asMember(owner, TENANT))
      const started = yield* (yield* Verifications).start(tenant, stones)
      expect(started.verification).toMatchObject({ status: "Error", source: "Hmrc" })
      expect(started.verification?.message).toContain("HMRC credentials")
      expect(yield* (yield* VerificationWork).workDue(10, LEASE)).toBe(0)
    }).pipe(Effect.provide(app))
  )
})
