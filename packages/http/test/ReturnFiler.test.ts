import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { DocumentRendererPdf } from "@cisbook/adapters/documents/DocumentRendererPdf"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { Contact, notVerified, Verification } from "@cisbook/core/contacts/Contact"
import type { Email } from "@cisbook/core/Email"
import { ValidationFailed } from "@cisbook/core/Errors"
import { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { TaxAuthority, TaxAuthorityUnavailable } from "@cisbook/core/taxauthority/TaxAuthority"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { ReturnFiling } from "@cisbook/core/returns/ReturnFiling"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import type { User } from "@cisbook/core/users/User"
import { Users } from "@cisbook/core/users/Users"
import { sampleCisScheme } from "@cisbook/testkit/CisSchemeFixtures"
import { pdfText } from "@cisbook/testkit/PdfText"
import { SqlClient } from "@effect/sql"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, Ref, Scope } from "effect"
import { returnFiler } from "../src/workers/ReturnFiler.js"
import { engineReceived } from "./GovTalkSandbox.js"
import { appOver, eventually } from "./WorkerTestApp.js"
import { asUser } from "@cisbook/core/users/ActingAs"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"

const fast = { pollInterval: Duration.millis(20), concurrency: 4, lease: Duration.seconds(60) }

/** A tax authority that never takes a return, counting the tries. */
const unavailable = (tries: Ref.Ref<number>) =>
  Layer.succeed(
    TaxAuthority,
    TaxAuthority.of({
      sendReturn: () =>
        Effect.zipRight(
          Ref.update(tries, (n) => n + 1),
          Effect.fail(new TaxAuthorityUnavailable({ message: "HMRC is down" }))
        ),
      pollReturn: () => Effect.die("never sent"),
      lookUpReturn: () => Effect.die("never sent"),
      deleteReturnAnswer: () => Effect.die("never sent"),
      sendVerification: () => Effect.die("not used"),
      pollVerification: () => Effect.die("not used"),
      lookUpVerification: () => Effect.die("not used"),
      deleteVerificationAnswer: () => Effect.die("not used")
    })
  )

/**
 * The GovTalk adapter over the local Transaction Engine. With `stallOnce`, the first call of
 * that kind does its work and then never answers the filer: a filer stopped there has sent the
 * return (or polled it, or got its final answer) without learning what came of it. `stalled`
 * turns true when a call stalled.
 */
const sandbox = (stallOnce: "send" | "poll" | "answer" | null = null, stalled?: Ref.Ref<boolean>) =>
  Effect.gen(function* () {
    const authority = yield* TaxAuthority
    const once = stalled ?? (yield* Ref.make(false))
    /** Whether a call of this kind, with this result, is where the filer stops. */
    const stopsAt = (kind: "send" | "poll", result: { readonly _tag: string }) =>
      stallOnce === kind ||
      (stallOnce === "answer" && kind === "poll" && (result._tag === "Accepted" || result._tag === "Rejected"))
    const stall =
      (kind: "send" | "poll") =>
      <A extends { readonly _tag: string }, E>(call: Effect.Effect<A, E>): Effect.Effect<A, E> =>
        Effect.flatMap(call, (result) =>
          !stopsAt(kind, result)
            ? Effect.succeed(result)
            : Effect.flatMap(Ref.getAndSet(once, true), (already) => (already ? Effect.succeed(result) : Effect.never))
        )
    return Layer.succeed(
      TaxAuthority,
      TaxAuthority.of({
        ...authority,
        sendReturn: (submission, credentials) => stall("send")(authority.sendReturn(submission, credentials)),
        pollReturn: (sent) => stall("poll")(authority.pollReturn(sent))
      })
    )
  })

/** How many times the Transaction Engine received the return. */
const receivedCount = (id: string) => Effect.map(engineReceived(id), (rows) => rows.length)

/** Runs a filer until the returned effect closes it (as SIGTERM, or a process dying, would). */
const startFiler = (authority: Layer.Layer<TaxAuthority>, options = fast) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(
      returnFiler(options).pipe(Layer.provide(ReturnFiling.Default), Layer.provide([authority, DocumentRendererPdf])),
      scope
    )
    return Scope.close(scope, Exit.void)
  })

let counter = 0
/** A contractor with its CIS details, automatic statements, and one verified subcontractor with an email address. */
const aContractorPaying = (subcontractorName: string, storedTradingName = subcontractorName) =>
  Effect.gen(function* () {
    const n = ++counter
    const owner = yield* (yield* Users).create({ email: `filer${n}@example.com` as Email, name: "Owner" })
    const code = `filer-${n}-${Date.now().toString(36)}`
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make(code),
        name: "Lovelace",
        email: null
      })
      .pipe(asUser(owner))
    yield* (yield* TenantSettings)
      .setCisDetails({
        type: "Company",
        tradingName: "Lovelace Builders Ltd",
        utr: "8456789123"
      })
      .pipe(asMember(owner, code))
    yield* (yield* TenantSettings).setCisScheme(sampleCisScheme).pipe(asMember(owner, code))
    yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(owner, code))
    yield* (yield* EmailSettingsRepo).setSettings(
      tenant.id,
      new EmailSettings({ signature: null, autoEmailStatements: true })
    )
    const created = yield* (yield* Contacts)
      .create({
        name: subcontractorName,
        email: `bricks${n}@example.com`,
        isSupplier: true,
        isCisSubcontractor: true,
        cisDetails: {
          type: "Company",
          title: null,
          firstName: null,
          secondName: null,
          lastName: null,
          tradingName: subcontractorName,
          utr: "2234567890",
          niNumber: null,
          companyNumber: null
        }
      })
      .pipe(asMember(owner, code))
    const verification = new Verification({ ...notVerified, status: "Verified", taxTreatment: "Net", source: "Hmrc" })
    // A trading name may have been stored before HMRC's forms were enforced where names are entered.
    const cisDetails = new CisDetails({ ...created.cisDetails!, tradingName: storedTradingName })
    yield* (yield* ContactRepo).update(new Contact({ ...created, cisDetails, verification }))
    const filed = yield* (yield* MonthlyReturns)
      .file({
        declarations: allDeclared,
        periodEnd: "2026-06-05",
        lines: [{ contact: created.code, grossAmount: 100000, materials: 40000, deducted: 12000 }]
      })
      .pipe(asMember(owner, code))
    return { owner, code, tenant, filed, email: created.email! } as const
  })
const aContractor = aContractorPaying("Bricks Ltd")

const statusOf = (owner: User, code: string, id: string) =>
  Effect.flatMap(MonthlyReturns, (returns) => returns.get(id).pipe(asMember(owner, code))).pipe(
    Effect.map((r) => r.status)
  )

/** The kinds of the tenant's monthly return events, oldest first. */
const returnEvents = (tenantId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ type: string }>`
      SELECT type FROM events WHERE tenant_id = ${tenantId} AND type LIKE 'monthly-return.%' ORDER BY occurred_at`
  ).pipe(Effect.map((rows) => rows.map((r) => r.type)))

layer(appOver(EphemeralDatabase), { excludeTestServices: true, timeout: "60 seconds" })("return filer", (it) => {
  it.scoped("submits a filed return, records it Accepted with its event, and queues the statement with its PDF", () =>
    Effect.gen(function* () {
      const { code, email, filed, owner, tenant } = yield* aContractor
      const stop = yield* startFiler(yield* sandbox())
      yield* eventually(statusOf(owner, code, filed.id), (status) => status === "Accepted")
      yield* stop
      expect(yield* returnEvents(tenant.id)).toEqual(["monthly-return.accepted"])
      const claimed = yield* Effect.flatMap(MailOutbox, (outbox) =>
        outbox.claimDue(new Date(Date.now() + 1000), new Date(Date.now() + 60_000), 1000)
      )
      const [mail] = claimed.filter((c) => c.mail.to === email)
      expect(mail?.mail.subject).toContain("5 June 2026")
      const [attachment] = mail?.mail.attachments ?? []
      expect(attachment?.filename).toBe(`statement-${filed.lines[0]!.contactCode}-2026-06-05.pdf`)
      const text = yield* pdfText(attachment!.content)
      expect(text).toContain("Lovelace Builders Ltd")
      expect(text).toContain("Tax month ending 5 June 2026")
      expect(text).toContain("£120.00")
      // Sent once, polled no sooner than the engine's PollInterval, and deleted once answered.
      const [received, ...more] = yield* engineReceived(filed.id)
      expect(more).toEqual([])
      expect(received?.earlyPolls).toBe(0)
      expect(received?.deletedAt).not.toBeNull()
    })
  )

  it.scoped("keeps a return Submitted while the tax authority is unavailable", () =>
    Effect.gen(function* () {
      const { code, filed, owner } = yield* aContractor
      const tries = yield* Ref.make(0)
      const stop = yield* startFiler(unavailable(tries))
      yield* eventually(Ref.get(tries), (n) => n >= 1)
      yield* stop
      expect(yield* statusOf(owner, code, filed.id)).toBe("Submitted")
    })
  )

  /** The correlation id and sent-at the database holds for a return. */
  const sentRecord = (id: string) =>
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ correlationId: string | null; sentAt: Date | null }>`
        SELECT correlation_id, sent_at FROM monthly_returns WHERE id = ${id}`
    ).pipe(Effect.map((rows) => rows[0]!))

  /**
   * A return whose first filer is stopped where `stallOnce` says, then filed by a second filer;
   * `sends`: how many times, at least, the Transaction Engine then received it (a stalled first
   * filer whose lease ran out before it was stopped may have sent it once more itself).
   */
  const killedFiler = (stallOnce: "send" | "poll", sends: number) =>
    Effect.gen(function* () {
      const { code, filed, owner, tenant } = yield* aContractor
      const authority = yield* sandbox(stallOnce)
      const lease = Duration.seconds(1)
      const stopFirst = yield* startFiler(authority, { ...fast, lease })
      yield* eventually(receivedCount(filed.id), (n) => n === 1)
      if (stallOnce === "poll") yield* eventually(sentRecord(filed.id), (r) => r.correlationId !== null)
      yield* stopFirst
      expect(yield* statusOf(owner, code, filed.id)).toBe("Submitted")
      const recordedBeforeDeath = (yield* sentRecord(filed.id)).correlationId

      const stopSecond = yield* startFiler(authority, { ...fast, lease })
      yield* eventually(statusOf(owner, code, filed.id), (status) => status === "Accepted")
      yield* stopSecond
      const received = yield* engineReceived(filed.id)
      if (stallOnce === "poll") expect(received).toHaveLength(sends)
      else expect(received.length).toBeGreaterThanOrEqual(sends)
      // Recorded once (the last sending), announced once.
      expect((yield* sentRecord(filed.id)).correlationId).toBe(received[received.length - 1]!.correlationId)
      expect(yield* returnEvents(tenant.id)).toEqual(["monthly-return.accepted"])
      return recordedBeforeDeath
    })

  it.scoped(
    "a filer killed after sending, before it learnt the acknowledgement: nothing was recorded, so the next sends it again, as after a transport failure, never asking HMRC's data request",
    () =>
      Effect.gen(function* () {
        expect(yield* killedFiler("send", 2)).toBeNull()
      })
  )

  it.scoped(
    "a filer killed while polling: the next polls under the recorded correlation id without sending again",
    () =>
      Effect.gen(function* () {
        expect(yield* killedFiler("poll", 1)).not.toBeNull()
      })
  )

  it.scoped(
    "a filer killed after HMRC's answer, before recording it: the answer is still held, the next filer records Accepted and only then deletes it",
    () =>
      Effect.gen(function* () {
        const { code, filed, owner, tenant } = yield* aContractor
        const answered = yield* Ref.make(false)
        const authority = yield* sandbox("answer", answered)
        const lease = Duration.seconds(1)
        const stopFirst = yield* startFiler(authority, { ...fast, lease })
        yield* eventually(Ref.get(answered), (stalled) => stalled)
        yield* stopFirst
        expect(yield* statusOf(owner, code, filed.id)).toBe("Submitted")
        // HMRC answered the first filer, which recorded nothing: the answer must still be there.
        const [held] = yield* engineReceived(filed.id)
        expect(held?.deletedAt).toBeNull()

        const stopSecond = yield* startFiler(authority, { ...fast, lease })
        yield* eventually(statusOf(owner, code, filed.id), (status) => status !== "Submitted")
        expect(yield* statusOf(owner, code, filed.id)).toBe("Accepted")
        // Deleted right after the record: the engine holds nothing more for the correlation id.
        yield* eventually(engineReceived(filed.id), ([row]) => row?.deletedAt !== null)
        yield* stopSecond
        const received = yield* engineReceived(filed.id)
        expect(received).toHaveLength(1)
        expect(received[0]?.correlationId).toBe(held?.correlationId)
        expect(yield* returnEvents(tenant.id)).toEqual(["monthly-return.accepted"])
      })
  )

  it.scoped("records HMRC's answer to a return whose deductions total £999.99: Rejected with every error's text", () =>
    Effect.gen(function* () {
      const owner = yield* aContractor
      const { code, filed, tenant } = owner
      // A second return of the same tenant and month is refused, so reuse the contractor's
      // subcontractor on a return of its own for another month.
      const rejected = yield* (yield* MonthlyReturns)
        .file({
          declarations: allDeclared,
          periodEnd: "2026-05-05",
          lines: [{ contact: filed.lines[0]!.contactCode, grossAmount: 600000, materials: 100000, deducted: 99999 }]
        })
        .pipe(asMember(owner.owner, code))
      const stop = yield* startFiler(yield* sandbox())
      yield* eventually(statusOf(owner.owner, code, rejected.id), (status) => status === "Rejected")
      yield* stop
      const answer = yield* Effect.flatMap(MonthlyReturns, (returns) =>
        returns.get(rejected.id).pipe(asMember(owner.owner, code))
      )
      expect(answer.rejectionReason).toContain("Your submission failed due to business validation errors")
      expect(answer.rejectionReason).toContain("The total deducted (£999.99) does not agree with the payments made.")
      expect(yield* receivedCount(rejected.id)).toBe(1)
      expect(yield* returnEvents(tenant.id)).toContain("monthly-return.rejected")
    })
  )

  it.scoped("refuses at filing, naming the line, a return HMRC's schema would refuse; nothing is queued or sent", () =>
    Effect.gen(function* () {
      // The service keeps trading names of up to 200 characters; HMRC takes 56.
      const refused = yield* Effect.flip(aContractorPaying("Bricks Ltd", `Bricks ${"and Mortar ".repeat(6)}Ltd`))
      assert(refused instanceof ValidationFailed)
      expect(Object.keys(refused.errors)).toEqual(["lines[0].contact"])
      expect(refused.errors["lines[0].contact"]?.[0]).toMatch(/^HMRC's schema refuses it: .*TradingName/)
    })
  )
})
