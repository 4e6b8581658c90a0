import { sandboxCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { assert, describe, expect, it } from "@effect/vitest"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { Duration, Effect, Layer, Option } from "effect"
import { CisDetails } from "../../src/cis/CisDetails.js"
import { Contact, notVerified, Verification } from "../../src/contacts/Contact.js"
import { Conflict, NotFound, Refused, ValidationFailed } from "../../src/Errors.js"
import { Email } from "../../src/Email.js"
import { EmailSettings } from "../../src/mail/EmailSettings.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { EmailSettingsRepo } from "../../src/mail/EmailSettingsRepo.js"
import { TaxAuthority, TaxAuthorityUnavailable } from "../../src/taxauthority/TaxAuthority.js"
import type { ReturnSubmission } from "../../src/taxauthority/ReturnSubmission.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { MonthlyReturns } from "../../src/returns/MonthlyReturns.js"
import { ReturnFiling } from "../../src/returns/ReturnFiling.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import type { User } from "../../src/users/User.js"
import { outboxMails } from "../mail/OutboxMails.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"
import { allDeclared, nilDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { ApiKeyId } from "../../src/Ids.js"
import { ReturnDeclarations } from "../../src/returns/ReturnDeclarations.js"
import { CurrentTenant } from "../../src/tenants/CurrentTenant.js"
import { CurrentUser } from "../../src/users/CurrentUser.js"

const TENANT = "lovelace-builders"
const identity = {
  type: "SoleTrader",
  title: null,
  firstName: "Jo",
  secondName: null,
  tradingName: null,
  niNumber: null,
  companyNumber: null
} as const

const scheme = { employerReference: "123/ab 45678", accountsOfficeReference: "123pw12345678" }

type Said = "Accepted" | "Unavailable" | "Pending" | string

/** Where the test's tax authority answers: not where it takes returns. */
const ENDPOINT = "https://hmrc.example/poll"

/**
 * A tax authority that works as GovTalk does: a sent return is acknowledged with a correlation
 * id and answered when polled at its endpoint. `answer` says, for each poll, what to answer;
 * "Unavailable" at sending refuses to take the return. Keeps every return sent and every answer
 * deleted (or, with `deleteFails`, deletes none).
 */

const taxAuthority = (
  answer: (submission: ReturnSubmission) => Said,
  refuse?: (s: ReturnSubmission) => string | null,
  deleteFails = false
) => {
  const submitted: Array<ReturnSubmission> = []
  const deleted: Array<string> = []
  const correlationOf = (id: string) => `C-${id}`
  const sentOf = (id: string) =>
    ({
      _tag: "Acknowledged",
      acknowledgement: { correlationId: correlationOf(id), endpoint: ENDPOINT, pollIntervalSeconds: 0 },
      irmark: `IRMARK-${id}`,
      gatewayTest: false
    }) as const
  const layer = Layer.succeed(
    TaxAuthority,
    TaxAuthority.of({
      sendReturn: (submission) => {
        if (answer(submission) === "Unavailable")
          return Effect.fail(new TaxAuthorityUnavailable({ message: "HMRC is down" }))
        const refused = refuse?.(submission) ?? null
        if (refused !== null) return Effect.succeed({ _tag: "Rejected", reason: refused })
        submitted.push(submission)
        return Effect.succeed(sentOf(submission.id))
      },
      pollReturn: (sent) => {
        const submission = submitted.find((s) => correlationOf(s.id) === sent.correlationId)
        assert(submission !== undefined)
        expect(sent).toMatchObject({ correlationId: correlationOf(submission.id), endpoint: ENDPOINT })
        const said = answer(submission)
        return said === "Accepted"
          ? Effect.succeed({
              _tag: "Accepted",
              receipt: { message: "HMRC has received the IR-CIS-CIS300MR document.", irmark: `IRMARK-${submission.id}` }
            })
          : said === "Unavailable"
            ? Effect.fail(new TaxAuthorityUnavailable({ message: "HMRC is down" }))
            : said === "Pending"
              ? Effect.succeed({
                  _tag: "Pending",
                  acknowledgement: { correlationId: sent.correlationId, endpoint: ENDPOINT, pollIntervalSeconds: 10 }
                })
              : Effect.succeed({ _tag: "Rejected", reason: said })
      },
      lookUpReturn: () => Effect.die("not used"),
      deleteReturnAnswer: (sent) => {
        expect(sent.endpoint).toBe(ENDPOINT)
        return deleteFails
          ? Effect.fail(new TaxAuthorityUnavailable({ message: "HMRC is down" }))
          : Effect.sync(() => deleted.push(sent.correlationId))
      },
      sendVerification: () => Effect.die("not used"),
      pollVerification: () => Effect.die("not used"),
      lookUpVerification: () => Effect.die("not used"),
      deleteVerificationAnswer: () => Effect.die("not used")
    })
  )
  return { submitted, deleted, layer }
}

/** Email settings with automatic statements on or off; nothing else of them is read here. */
const emailSettings = (autoEmailStatements: boolean) =>
  Layer.succeed(
    EmailSettingsRepo,
    EmailSettingsRepo.of({
      getSettings: () => Effect.succeed(Option.some(new EmailSettings({ signature: null, autoEmailStatements }))),
      setSettings: () => Effect.die("not used"),
      listTemplates: () => Effect.die("not used"),
      saveTemplate: () => Effect.die("not used"),
      deleteTemplate: () => Effect.die("not used"),
      mailContext: () => Effect.die("not used")
    })
  )

const app = (authority = taxAuthority(() => "Accepted"), autoEmailStatements = false) =>
  // The test's tax authority and settings go to the filing itself: the memory ports have their own.
  Layer.provideMerge(
    ReturnFiling.Default.pipe(Layer.provide([authority.layer, emailSettings(autoEmailStatements)])),
    testApp()
  ).pipe(Layer.provide(DocumentRendererFake))

/** A subcontractor made verified as the tax authority's answer would leave it. */
const verifiedSubcontractor = (owner: User, name: string, utr: string, treatment: "Net" | "Unmatched") =>
  Effect.gen(function* () {
    const created = yield* (yield* Contacts)
      .create({
        name,
        isSupplier: true,
        isCisSubcontractor: true,
        cisDetails: { ...identity, lastName: name, utr }
      })
      .pipe(asMember(owner, TENANT))
    const verification = new Verification({
      ...notVerified,
      status: "Verified",
      taxTreatment: treatment,
      verificationNumber: treatment === "Unmatched" ? "V1234567890/A" : "V1234567890",
      source: "Hmrc"
    })
    const email = treatment === "Net" ? Email.make(`${name.toLowerCase()}@example.com`) : null
    yield* (yield* ContactRepo).update(new Contact({ ...created, email, verification }))
    return created.code
  })

const setUp = Effect.gen(function* () {
  const owner = yield* aUser("owner@example.com")
  yield* (yield* Tenants)
    .create({
      code: TenantCode.make(TENANT),
      name: "Lovelace Builders Ltd",
      email: null
    })
    .pipe(asUser(owner))
  yield* (yield* TenantSettings)
    .setCisDetails({
      type: "Company",
      tradingName: "Lovelace Builders Ltd",
      utr: "8456789123"
    })
    .pipe(asMember(owner, TENANT))
  yield* (yield* TenantSettings).setCisScheme(scheme).pipe(asMember(owner, TENANT))
  yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(owner, TENANT))
  const net = yield* verifiedSubcontractor(owner, "Bricks", "2234567890", "Net")
  const high = yield* verifiedSubcontractor(owner, "Stones", "4345678912", "Unmatched")
  // The clock stands at 2026-11-21: the current tax month ends on 2026-12-05.
  return { owner, returns: yield* MonthlyReturns, net, high } as const
})

const june = (net: string, high: string) => ({
  periodEnd: "2026-06-05",
  declarations: allDeclared,
  lines: [
    { contact: net.toLowerCase(), grossAmount: 100000, materials: 40000, deducted: 12000 },
    { contact: high, grossAmount: 50000, materials: 0, deducted: 15000 }
  ]
})

describe("MonthlyReturns", () => {
  it.effect("files a return Submitted, copying each subcontractor's details and the contractor's identity", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      expect(filed).toMatchObject({
        periodEnd: "2026-06-05",
        status: "Submitted",
        acceptedAt: null,
        invoiced: false,
        nilReturn: false,
        inactive: false,
        contractor: {
          name: "Lovelace Builders Ltd",
          utr: "8456789123",
          scheme: { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }
        }
      })
      expect(filed.lines.map((l) => [l.contactCode, l.name, l.utr, l.verificationNumber, l.taxTreatment])).toEqual([
        [net, "Bricks", "2234567890", "V1234567890", "Net"],
        [high, "Stones", "4345678912", "V1234567890/A", "Unmatched"]
      ])
      expect(yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).toEqual(filed)
      expect(yield* returns.list().pipe(asMember(owner, TENANT))).toEqual([filed])
    }).pipe(Effect.provide(app()))
  )

  it.effect("refuses a tax month that has not started, a second live return for a month, and bad lines", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const future = yield* Effect.flip(
        returns.file({ ...june(net, high), periodEnd: "2027-01-05" }).pipe(asMember(owner, TENANT))
      )
      assert(future instanceof ValidationFailed)
      expect(Object.keys(future.errors)).toEqual(["periodEnd"])
      // The current tax month may be filed.
      yield* returns.file({ ...june(net, high), periodEnd: "2026-12-05" }).pipe(asMember(owner, TENANT))
      yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      expect(yield* Effect.flip(returns.file(june(net, high)).pipe(asMember(owner, TENANT)))).toBeInstanceOf(Conflict)
      const bad = yield* Effect.flip(
        returns
          .file({
            declarations: allDeclared,
            periodEnd: "2026-05-05",
            lines: [{ contact: net, grossAmount: 100, materials: 0, deducted: 21 }]
          })
          .pipe(asMember(owner, TENANT))
      )
      assert(bad instanceof ValidationFailed)
      expect(Object.keys(bad.errors)).toEqual(["lines[0].deducted"])
      expect((yield* returns.list().pipe(asMember(owner, TENANT))).map((r) => r.periodEnd)).toEqual([
        "2026-12-05",
        "2026-06-05"
      ])
    }).pipe(Effect.provide(app()))
  )

  it.effect(
    "refuses a return HMRC's schema would refuse, naming each line's contact, checking the document once, and files nothing",
    () =>
      Effect.gen(function* () {
        const { owner, returns, net, high } = yield* setUp
        // A name stored before HMRC's forms were enforced at entry.
        const repo = yield* ContactRepo
        const stones = yield* (yield* Contacts).get(high).pipe(asMember(owner, TENANT))
        yield* repo.update(
          new Contact({ ...stones, cisDetails: new CisDetails({ ...stones.cisDetails!, lastName: "S".repeat(36) }) })
        )
        const refused = yield* Effect.flip(returns.file(june(net, high)).pipe(asMember(owner, TENANT)))
        assert(refused instanceof ValidationFailed)
        expect(Object.keys(refused.errors)).toEqual(["lines[1].contact"])
        expect(refused.errors["lines[1].contact"]?.[0]).toMatch(/^HMRC's schema refuses it: HMRC takes a surname/)
        expect(yield* returns.list().pipe(asMember(owner, TENANT))).toEqual([])
      }).pipe(Effect.provide(app()))
  )

  it.effect("refuses a return until the tenant's CIS scheme registration is set, naming both references", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("no-scheme"), name: "No Scheme", email: null })
        .pipe(asUser(owner))
      yield* (yield* TenantSettings)
        .setCisDetails({
          type: "Company",
          tradingName: "N",
          utr: "8456789123"
        })
        .pipe(asMember(owner, "no-scheme"))
      const refused = yield* Effect.flip(
        returns
          .file({ declarations: nilDeclared, periodEnd: "2026-06-05", nilReturn: true })
          .pipe(asMember(owner, "no-scheme"))
      )
      assert(refused instanceof ValidationFailed)
      expect(Object.keys(refused.errors)).toEqual(["employerReference", "accountsOfficeReference"])
      expect(yield* returns.list().pipe(asMember(owner, "no-scheme"))).toEqual([])
      // The tenant that has one files (its subcontractors are its own).
      expect((yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))).status).toBe("Submitted")
    }).pipe(Effect.provide(app()))
  )

  it.effect(
    "files a nil return with no lines, inactive or not; a nil return with lines, or lines missing otherwise, is refused",
    () =>
      Effect.gen(function* () {
        const { owner, returns, net, high } = yield* setUp
        const nil = yield* returns
          .file({ declarations: nilDeclared, periodEnd: "2026-06-05", nilReturn: true, inactive: true })
          .pipe(asMember(owner, TENANT))
        expect(nil).toMatchObject({ status: "Submitted", nilReturn: true, inactive: true, lines: [] })
        expect(nil.contractor.scheme?.employerReference).toBe("123/AB45678")
        const withEmpty = yield* returns
          .file({ declarations: nilDeclared, periodEnd: "2026-07-05", nilReturn: true, lines: [] })
          .pipe(asMember(owner, TENANT))
        expect(withEmpty).toMatchObject({ nilReturn: true, inactive: false, lines: [] })
        const nilWithLines = yield* Effect.flip(
          returns.file({ ...june(net, high), periodEnd: "2026-08-05", nilReturn: true }).pipe(asMember(owner, TENANT))
        )
        assert(nilWithLines instanceof ValidationFailed)
        expect(Object.keys(nilWithLines.errors)).toEqual(["lines"])
        const noLines = yield* Effect.flip(
          returns.file({ declarations: allDeclared, periodEnd: "2026-08-05", lines: [] }).pipe(asMember(owner, TENANT))
        )
        assert(noLines instanceof ValidationFailed)
        expect(noLines.errors.lines?.[0]).toContain("nil return")
        const inactiveOnly = yield* Effect.flip(
          returns.file({ ...june(net, high), periodEnd: "2026-08-05", inactive: true }).pipe(asMember(owner, TENANT))
        )
        assert(inactiveOnly instanceof ValidationFailed)
        expect(Object.keys(inactiveOnly.errors)).toEqual(["inactive"])
        expect((yield* returns.list().pipe(asMember(owner, TENANT))).map((r) => r.periodEnd)).toEqual([
          "2026-07-05",
          "2026-06-05"
        ])
        // A nil month is a month: a second live return for it is a conflict.
        expect(yield* Effect.flip(returns.file(june(net, high)).pipe(asMember(owner, TENANT)))).toBeInstanceOf(Conflict)
      }).pipe(Effect.provide(app()))
  )

  it.effect("needs the tenant's own CIS details complete, and keeps returns to the tenant's members", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      yield* (yield* TenantSettings)
        .setCisDetails({ type: "Company", tradingName: "Lovelace" })
        .pipe(asMember(owner, TENANT))
      const refused = yield* Effect.flip(returns.file(june(net, high)).pipe(asMember(owner, TENANT)))
      expect(refused).toBeInstanceOf(Refused)
      expect(refused.detail).toContain("utr")
      // The domain's words; the HTTP layer names the request that completes them.
      expect(refused).toMatchObject({
        detail: expect.stringMatching(/Complete the tenant's CIS details first\.$/),
        remedy: { _tag: "CompleteCisDetails", tenant: TENANT }
      })
      const stranger = yield* aUser("stranger@example.com")
      expect(yield* Effect.flip(returns.list().pipe(asMember(stranger, TENANT)))).toBeInstanceOf(NotAMember)
      expect(yield* Effect.flip(returns.get("not-a-uuid").pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(app()))
  )
})

describe("ReturnFiling", () => {
  const authority = taxAuthority((s) =>
    s.lines.reduce((sum, l) => sum + l.deducted, 0) === 99999 ? "Deductions do not add up" : "Accepted"
  )

  it.effect("submits due returns and records the tax authority's answer: Accepted, or Rejected with its reason", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filing = yield* ReturnFiling
      const accepted = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      const rejected = yield* returns
        .file({
          declarations: allDeclared,
          periodEnd: "2026-07-05",
          lines: [{ contact: high, grossAmount: 500000, materials: 0, deducted: 99999 }]
        })
        .pipe(asMember(owner, TENANT))
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(2)
      expect(authority.submitted.map((s) => s.id).sort()).toEqual([accepted.id, rejected.id].sort())
      const now = yield* (yield* ManualClock).now
      expect(yield* returns.get(accepted.id).pipe(asMember(owner, TENANT))).toMatchObject({
        status: "Accepted",
        acceptedAt: now
      })
      expect(yield* returns.get(rejected.id).pipe(asMember(owner, TENANT))).toMatchObject({
        status: "Rejected",
        rejectionReason: "Deductions do not add up"
      })
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(0)
      // Both answers, once recorded, are deleted at the tax authority.
      expect([...authority.deleted].sort()).toEqual([`C-${accepted.id}`, `C-${rejected.id}`].sort())
      const tenantId = (yield* returns.get(accepted.id).pipe(asMember(owner, TENANT))).tenantId
      const events = (yield* Effect.flatMap(RecordedEvents, (recorded) => recorded.list(tenantId))).filter((e) =>
        e.type.startsWith("monthly-return.")
      )
      expect(
        events
          .map((e) => [e.type, (e.data as { id: string; status: string }).id, (e.data as { status: string }).status])
          .sort()
      ).toEqual([
        ["monthly-return.accepted", accepted.id, "Accepted"],
        ["monthly-return.rejected", rejected.id, "Rejected"]
      ])
      // A rejected month may be filed again.
      yield* returns.file({ ...june(net, high), periodEnd: "2026-07-05" }).pipe(asMember(owner, TENANT))
    }).pipe(Effect.provide(app(authority)))
  )

  it.effect(
    "submits a nil return with its flags and the contractor's scheme, records it Accepted, and mails nothing",
    () => {
      const authority = taxAuthority(() => "Accepted")
      return Effect.gen(function* () {
        const { owner, returns } = yield* setUp
        const nil = yield* returns
          .file({ declarations: nilDeclared, periodEnd: "2026-06-05", nilReturn: true, inactive: true })
          .pipe(asMember(owner, TENANT))
        expect(yield* (yield* ReturnFiling).fileDue(10, Duration.minutes(1))).toBe(1)
        expect(authority.submitted).toHaveLength(1)
        expect(authority.submitted[0]).toMatchObject({
          id: nil.id,
          nilReturn: true,
          inactive: true,
          lines: [],
          contractor: { scheme: { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" } }
        })
        expect((yield* returns.get(nil.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
        expect(yield* outboxMails).toEqual([])
      }).pipe(Effect.provide(app(authority, true)))
    }
  )

  it.effect("keeps a return Submitted while the tax authority is unavailable, and tries again later", () => {
    let up = false
    const flaky = taxAuthority(() => (up ? "Accepted" : "Unavailable"))
    return Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filing = yield* ReturnFiling
      const clock = yield* ManualClock
      const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(1)
      expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Submitted")
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(0)
      up = true
      yield* clock.advance(30_000)
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(1)
      expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
      // Taken once: when the authority was up again.
      expect(flaky.submitted).toHaveLength(1)
    }).pipe(Effect.provide(app(flaky)))
  })

  it.effect("mails each subcontractor with an email address its statement, with the PDF, when the tenant says so", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filing = yield* ReturnFiling
      yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      yield* filing.fileDue(10, Duration.minutes(1))
      const [only, ...rest] = yield* outboxMails
      expect(rest).toEqual([])
      expect(only).toMatchObject({
        type: "CisStatement",
        to: "bricks@example.com",
        fromName: "Lovelace Builders Ltd",
        subject: "Your CIS payment and deduction statement for the month to 5 June 2026"
      })
      expect(only?.body).toContain("Dear Bricks,")
      expect(only?.body).toContain("from Lovelace Builders Ltd for the tax month ending 5 June 2026")
      expect(only?.body).toContain(
        "Gross amount paid (excluding VAT): £1,000.00\nCost of materials: £400.00\nAmount deducted: £120.00\n"
      )
      const [attachment] = only!.attachments
      expect(attachment?.filename).toBe(`statement-${net}-2026-06-05.pdf`)
      expect(attachment?.contentType).toBe("application/pdf")
      expect(JSON.parse(new TextDecoder().decode(attachment!.content))).toMatchObject({
        contractor: { name: "Lovelace Builders Ltd", utr: "8456789123" },
        periodEnd: "2026-06-05",
        subcontractor: { code: net, name: "Bricks", utr: "2234567890", verificationNumber: null },
        liableToDeduction: 60000,
        deducted: 12000,
        netPaid: 88000
      })
    }).pipe(
      Effect.provide(
        app(
          taxAuthority(() => "Accepted"),
          true
        )
      )
    )
  )

  const noStatements = (answer: "Accepted" | "UTR unknown", autoEmailStatements: boolean) =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      yield* (yield* ReturnFiling).fileDue(10, Duration.minutes(1))
      expect((yield* returns.list().pipe(asMember(owner, TENANT))).map((r) => r.status)).toEqual([
        answer === "Accepted" ? "Accepted" : "Rejected"
      ])
      expect(yield* outboxMails).toEqual([])
    }).pipe(
      Effect.provide(
        app(
          taxAuthority(() => answer),
          autoEmailStatements
        )
      )
    )

  it.effect("mails no statement when the tenant does not email them automatically", () =>
    noStatements("Accepted", false)
  )

  it.effect("mails no statement for a rejected return", () => noStatements("UTR unknown", true))

  it.effect("deletes the tax authority's answer only once it is recorded, and a failed delete changes nothing", () => {
    const deleting = taxAuthority(() => "Accepted")
    return Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filing = yield* ReturnFiling
      const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      const submitted = yield* Effect.forEach(yield* filing.claim(10, Duration.minutes(1)), filing.attempt)
      expect(submitted.map((s) => s.outcome._tag)).toEqual(["Accepted"])
      // Answered, not yet recorded: a filer dying now must find the answer at the tax authority.
      expect(deleting.deleted).toEqual([])
      yield* filing.record(submitted)
      expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
      expect(deleting.deleted).toEqual([`C-${filed.id}`])
    }).pipe(Effect.provide(app(deleting)))
  })

  it.effect("records the answer although the tax authority would not delete it", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      expect(yield* (yield* ReturnFiling).fileDue(10, Duration.minutes(1))).toBe(1)
      expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
    }).pipe(Effect.provide(app(taxAuthority(() => "Accepted", undefined, true))))
  )

  it.effect(
    "polls again for an answer not ready yet, without sending the return again or counting a failed attempt",
    () => {
      let said: Said = "Pending"
      const slow = taxAuthority(() => said)
      return Effect.gen(function* () {
        const { owner, returns, net, high } = yield* setUp
        const filing = yield* ReturnFiling
        const clock = yield* ManualClock
        const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
        expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(1)
        expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Submitted")
        // Due again only when the poll interval the authority gave has passed.
        yield* clock.advance(9_999)
        expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(0)
        expect(slow.deleted).toEqual([])
        yield* clock.advance(1)
        said = "Accepted"
        expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(1)
        expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
        expect(slow.submitted).toHaveLength(1)
      }).pipe(Effect.provide(app(slow)))
    }
  )

  it.effect(
    "never asks HMRC's data request before a first sending: a return whose filer died before recording HMRC's acknowledgement is sent again, as after a transport failure",
    () => {
      const authority = taxAuthority(() => "Accepted")
      return Effect.gen(function* () {
        const { owner, returns, net, high } = yield* setUp
        const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
        // Sent by a filer that died before it could record the acknowledgement.
        yield* Effect.flatMap(TaxAuthority, (hmrc) => hmrc.sendReturn(filed, sandboxCredentials)).pipe(
          Effect.provide(authority.layer)
        )
        // The test's authority dies at lookUpReturn: a data request here would fail the test.
        expect(yield* (yield* ReturnFiling).fileDue(10, Duration.minutes(1))).toBe(1)
        expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
        expect(authority.submitted.map((s) => s.id)).toEqual([filed.id, filed.id])
      }).pipe(Effect.provide(app(authority)))
    }
  )

  it.effect("keeps the correlation id when the answer cannot be fetched, and later polls without sending again", () => {
    let polls = 0
    const authority = taxAuthority(() => (polls++ === 1 ? "Unavailable" : "Accepted"))
    return Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filing = yield* ReturnFiling
      const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      // The first call is the send's own check, the second the poll, which fails.
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(1)
      expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Submitted")
      yield* (yield* ManualClock).advance(30_000)
      expect(yield* filing.fileDue(10, Duration.minutes(1))).toBe(1)
      expect((yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).status).toBe("Accepted")
      expect(authority.submitted).toHaveLength(1)
    }).pipe(Effect.provide(app(authority)))
  })

  it.effect("records as Rejected, with the reason, a return the tax authority refuses at sending", () =>
    Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      const filed = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      yield* (yield* ReturnFiling).fileDue(10, Duration.minutes(1))
      expect(yield* returns.get(filed.id).pipe(asMember(owner, TENANT))).toMatchObject({
        status: "Rejected",
        rejectionReason: "The contractor's Accounts Office reference is not valid."
      })
    }).pipe(
      Effect.provide(
        app(
          taxAuthority(
            () => "Accepted",
            () => "The contractor's Accounts Office reference is not valid."
          )
        )
      )
    )
  )
})

/** Runs a use case as `user` acting for the tenant with an API key's request, as the API finds them. */
const withApiKey =
  (user: User, code: string, apiKeyId: ApiKeyId) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    useCase.pipe(
      Effect.provideServiceEffect(
        CurrentTenant,
        Effect.flatMap(Tenants, (tenants) => tenants.access(code))
      ),
      Effect.provideService(CurrentUser, { user, apiKeyId })
    )

describe("Declarations", () => {
  it.effect(
    "a return with lines needs all three declarations true, a nil return informationCorrect: each missing or not true is named, and nothing is filed",
    () =>
      Effect.gen(function* () {
        const { owner, returns, net, high } = yield* setUp
        const refusal = (input: Parameters<typeof returns.file>[0]) =>
          Effect.flip(returns.file(input).pipe(asMember(owner, TENANT))).pipe(
            Effect.map((e) => (e instanceof ValidationFailed ? Object.keys(e.errors) : e))
          )
        const { declarations: _, ...undeclared } = june(net, high)
        expect(yield* refusal(undeclared)).toEqual([
          "declarations.employmentStatus",
          "declarations.subcontractorsVerified",
          "declarations.informationCorrect"
        ])
        expect(
          yield* refusal({ ...undeclared, declarations: { ...allDeclared, subcontractorsVerified: false } })
        ).toEqual(["declarations.subcontractorsVerified"])
        expect(yield* refusal({ ...undeclared, declarations: { informationCorrect: true } })).toEqual([
          "declarations.employmentStatus",
          "declarations.subcontractorsVerified"
        ])
        expect(yield* refusal({ periodEnd: "2026-06-05", nilReturn: true })).toEqual([
          "declarations.informationCorrect"
        ])
        expect(
          yield* refusal({ periodEnd: "2026-06-05", nilReturn: true, declarations: { informationCorrect: false } })
        ).toEqual(["declarations.informationCorrect"])
        expect(yield* returns.list().pipe(asMember(owner, TENANT))).toEqual([])
        const nil = yield* returns
          .file({ periodEnd: "2026-06-05", nilReturn: true, declarations: nilDeclared })
          .pipe(asMember(owner, TENANT))
        expect(nil.declarations).toMatchObject({
          employmentStatus: false,
          subcontractorsVerified: false,
          informationCorrect: true
        })
      }).pipe(Effect.provide(app()))
  )

  it.effect(
    "are recorded as made, by the user or by the API key the request came with, when the return was filed",
    () =>
      Effect.gen(function* () {
        const { owner, returns, net, high } = yield* setUp
        const now = yield* (yield* ManualClock).now
        const byUser = yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
        expect(byUser.declarations).toEqual(
          new ReturnDeclarations({ ...allDeclared, declaredBy: owner.id, declaredAt: now })
        )
        const key = ApiKeyId.make("0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d")
        const byKey = yield* returns
          .file({ ...june(net, high), periodEnd: "2026-07-05" })
          .pipe(withApiKey(owner, TENANT, key))
        expect(byKey.declarations.declaredBy).toBe(key)
        expect((yield* returns.get(byKey.id).pipe(asMember(owner, TENANT))).declarations.declaredBy).toBe(key)
      }).pipe(Effect.provide(app()))
  )

  it.effect("the tax authority receives the declarations as the contractor made them", () => {
    const authority = taxAuthority(() => "Accepted")
    return Effect.gen(function* () {
      const { owner, returns, net, high } = yield* setUp
      yield* returns.file(june(net, high)).pipe(asMember(owner, TENANT))
      yield* returns
        .file({ periodEnd: "2026-07-05", nilReturn: true, declarations: nilDeclared })
        .pipe(asMember(owner, TENANT))
      expect(yield* (yield* ReturnFiling).fileDue(10, Duration.minutes(1))).toBe(2)
      expect(
        authority.submitted
          .map(({ declarations: d, periodEnd }) => [
            periodEnd,
            {
              employmentStatus: d.employmentStatus,
              subcontractorsVerified: d.subcontractorsVerified,
              informationCorrect: d.informationCorrect
            }
          ])
          .sort()
      ).toEqual([
        ["2026-06-05", { employmentStatus: true, subcontractorsVerified: true, informationCorrect: true }],
        ["2026-07-05", { employmentStatus: false, subcontractorsVerified: false, informationCorrect: true }]
      ])
    }).pipe(Effect.provide(app(authority)))
  })
})
