import { sandboxCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { SANDBOX_SOFTWARE } from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { govTalkTaxAuthority } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTaxAuthority"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import type { ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import { assert, describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Schema, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { submittedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"
import { type HmrcDocument, hmrcDocument, STUB_RECEIPT_IRMARK } from "./HmrcDocuments.js"

const scheme = Schema.decodeSync(CisScheme)({
  employerReference: "123/AB456",
  accountsOfficeReference: "123PW12345678"
})

const submission: ReturnSubmission = {
  id: MonthlyReturnId.make(randomUUID()),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme }),
  nilReturn: false,
  inactive: false,
  declarations: submittedDeclarations(),
  lines: [
    new ReturnLine({
      contactId: ContactId.make(randomUUID()),
      contactCode: "BRICKS",
      name: "Bricks Ltd",
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 600_000,
      materials: 100_000,
      deducted: 100_000,
      cisDetails: Schema.decodeSync(CisDetails)({ type: "Company", tradingName: "Bricks Ltd", utr: "2234567890" })
    })
  ]
}

const verification = {
  contractor: { utr: "8456789123", scheme },
  subcontractor: Schema.decodeSync(CisDetails)({ type: "Company", tradingName: "Bricks Ltd", utr: "2234567890" })
}

/** What a scenario's poll answers with: one of HMRC's documents, and how the test's engine fills it in. */
const pollAnswers: Record<string, HmrcDocument> = {
  business: "return-business-error",
  fatal: "return-fatal-error",
  "1000": "return-recoverable-1000",
  "2005": "return-recoverable-2005",
  "3000": "return-recoverable-3000",
  unknown: "unknown-correlation",
  refused: "authentication-failure",
  reacknowledged: "return-acknowledgement",
  receipt: "return-accepted",
  "stub-receipt": "return-accepted",
  "base32-receipt": "return-accepted"
}

const CORRELATION_ID = "C0FFEE00C0FFEE00C0FFEE00C0FFEE00"

/**
 * A Transaction Engine of the test's own that answers with HMRC's documents (fixtures/hmrc) as
 * each scenario says: `/{scenario}/submission` answers a submission with the scenario's error
 * (`fatal`, `1000`, `2005`, `3000` at once), or acknowledges it (`{scenario}-at-poll`, and every
 * other scenario) naming `/{scenario}/poll/1`, whose poll answers the scenario's document; its
 * data request answers as `listed`, `unlisted` or `list-refused` say (HMRC's authentication
 * failure); `500` answers 503. It keeps every message's path, Qualifier and Function, and the
 * IRmark of what was submitted.
 */
const testEngine = Effect.acquireRelease(
  Effect.async<{ base: string; received: Array<string>; close: () => void }>((resume) => {
    const received: Array<string> = []
    let irmark = ""
    const server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        const qualifier = /<Qualifier>([^<]*)</.exec(body)?.[1]
        const fn = /<Function>([^<]*)</.exec(body)?.[1]
        received.push(`${request.url} ${qualifier} ${fn}`)
        const [, scenario = "", place = ""] = (request.url ?? "").split("/")
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
        if (scenario === "500") return void response.writeHead(503).end("Service Unavailable")
        const send = (xml: string) => response.writeHead(200, { "content-type": "text/xml" }).end(xml)
        const values = { correlationId: CORRELATION_ID, gatewayTimestamp: "2026-07-01T10:00:00.000" }
        if (fn === "delete") return send(hmrcDocument("return-delete-response", values))
        if (fn === "list") {
          if (scenario === "list-refused") return send(hmrcDocument("authentication-failure"))
          const record = hmrcDocument("list-record", {
            ...values,
            correlationId: scenario === "listed" ? CORRELATION_ID : "BEEFBEEFBEEFBEEFBEEFBEEFBEEFBEEF",
            transactionId: "ANY",
            status: "whatever HMRC writes"
          })
          return send(
            hmrcDocument("list-response", {
              ...values,
              class: "IR-CIS-CIS300MR",
              pollUrl: `${base}${scenario}/poll/1`,
              senderId: "CISBOOKSANDBOX",
              records: record
            })
          )
        }
        if (place === "submission" && qualifier === "request") {
          irmark = /<IRmark[^>]*>([^<]*)</.exec(body)?.[1] ?? ""
          const atOnce = pollAnswers[scenario]
          if (atOnce !== undefined && ["fatal", "1000", "2005", "3000"].includes(scenario))
            return send(hmrcDocument(atOnce, values, { host: base }))
          return send(hmrcDocument("return-acknowledgement", { ...values, pollUrl: `${base}${scenario}/poll/1` }))
        }
        const name = scenario.replace(/-at-poll$/, "")
        const document = pollAnswers[name] ?? "unknown-correlation"
        if (name === "reacknowledged")
          return send(hmrcDocument(document, { ...values, pollUrl: `${base}${scenario}/poll/2` }))
        const filled = hmrcDocument(document, values, {
          host: base,
          ...(name === "stub-receipt" ? {} : { receipt: { correlationId: CORRELATION_ID, irmark } })
        })
        // Without the digest of its signature, HMRC's receipt still names the IRmark in its message, in base32.
        return send(
          name === "base32-receipt"
            ? filled.replace(/<dsig:DigestValue>[^<]*<\/dsig:DigestValue>/, "<dsig:DigestValue/>")
            : filled
        )
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(
        Effect.succeed({
          base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          received,
          close: () => {
            server.close()
            server.closeAllConnections()
          }
        })
      )
    )
  }),
  ({ close }) => Effect.sync(close)
)

const adapterAt = (url: string) =>
  Effect.provide(TaxAuthority, govTalkTaxAuthority({ url, software: SANDBOX_SOFTWARE }))

/** Sends the return to the scenario's engine: its acknowledgement. */
const sentTo = (base: string, scenario: string) =>
  Effect.gen(function* () {
    const hmrc = yield* adapterAt(`${base}/${scenario}/submission`)
    const sent = yield* hmrc.sendReturn(submission, sandboxCredentials)
    assert(sent._tag === "Acknowledged")
    expect(sent.acknowledgement).toEqual({
      correlationId: CORRELATION_ID,
      endpoint: `${base}/${scenario}/poll/1`,
      pollIntervalSeconds: 5
    })
    return { hmrc, sent }
  })

describe("HMRC's answers, read as HMRC's own CIS service reads them", () => {
  it.scopedLive(
    "a fatal error at sending refuses the return with its text; the answer is deleted where HMRC named, never at the submission URL",
    () =>
      Effect.gen(function* () {
        const engine = yield* testEngine
        const fatal = yield* (yield* adapterAt(`${engine.base}/fatal/submission`)).sendReturn(
          submission,
          sandboxCredentials
        )
        expect(fatal).toEqual({ _tag: "Rejected", reason: "Forced fatal error (stub) (1020)" })
        expect(engine.received).toEqual([
          "/fatal/submission request submit",
          "/submission/ChRIS/IR-CIS-CIS300MR/Filing/data/true request delete"
        ])
      })
  )

  it.scopedLive(
    "HMRC's departmental rejection at a poll (3001 with its ErrorResponse) is final: rejected with every error's text as HMRC wrote it, no data request",
    () =>
      Effect.gen(function* () {
        const engine = yield* testEngine
        const { hmrc, sent } = yield* sentTo(engine.base, "business-at-poll")
        expect(yield* hmrc.pollReturn(sent.acknowledgement)).toEqual({
          _tag: "Rejected",
          reason:
            "The submission of this document has failed due to departmental specific business logic in the Body tag. (3001) Keys in the GovTalkDetails do not match those in the IRheader. (5005)"
        })
        // So is a fatal error at a poll.
        const fatal = yield* sentTo(engine.base, "fatal-at-poll")
        expect(yield* fatal.hmrc.pollReturn(fatal.sent.acknowledgement)).toEqual({
          _tag: "Rejected",
          reason: "Forced fatal error (stub) (1020)"
        })
        expect(engine.received.some((r) => r.endsWith("request list"))).toBe(false)
      })
  )

  for (const number of ["1000", "2005", "3000"]) {
    it.scopedLive(
      `error ${number} leaves the return and the verification to be sent again later; at a poll, HMRC failed the submission`,
      () =>
        Effect.gen(function* () {
          const engine = yield* testEngine
          const hmrc = yield* adapterAt(`${engine.base}/${number}/submission`)
          const sent = yield* Effect.exit(hmrc.sendReturn(submission, sandboxCredentials))
          expect(sent).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
          const verified = yield* Effect.exit(hmrc.sendVerification("REQUEST-1", verification, sandboxCredentials))
          expect(verified).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
          const atPoll = yield* sentTo(engine.base, `${number}-at-poll`)
          const polled = yield* atPoll.hmrc.pollReturn(atPoll.sent.acknowledgement)
          assert(polled._tag === "Failed")
          expect(polled.reason).toContain(`(${number})`)
          // Sent afresh by the filer later: nothing here asks HMRC's data request or sends again.
          expect(engine.received.filter((r) => r.startsWith(`/${number}-at-poll/`))).toEqual([
            `/${number}-at-poll/submission request submit`,
            `/${number}-at-poll/poll/1 poll submit`
          ])
        })
    )
  }

  it.scopedLive(
    "a correlation id HMRC no longer knows (2000) leaves the outcome unknown; HMRC's data request says whether it records it, whatever its Status, or refuses",
    () =>
      Effect.gen(function* () {
        const engine = yield* testEngine
        const { hmrc, sent } = yield* sentTo(engine.base, "unknown")
        const polled = yield* hmrc.pollReturn(sent.acknowledgement)
        assert(polled._tag === "Unknown")
        expect(polled.reason).toContain("(2000)")
        // The data request goes to the submission URL with the tenant's credentials.
        const listed = yield* (yield* adapterAt(`${engine.base}/listed/submission`)).lookUpReturn(
          sent.acknowledgement,
          sandboxCredentials
        )
        expect(listed).toEqual({ _tag: "Recorded", endpoint: `${engine.base}/listed/poll/1` })
        const unlisted = yield* (yield* adapterAt(`${engine.base}/unlisted/submission`)).lookUpReturn(
          sent.acknowledgement,
          sandboxCredentials
        )
        expect(unlisted).toEqual({ _tag: "NotRecorded" })
        const refused = yield* (yield* adapterAt(`${engine.base}/list-refused/submission`)).lookUpReturn(
          sent.acknowledgement,
          sandboxCredentials
        )
        assert(refused._tag === "Refused")
        expect(refused.reason).toContain("Authentication Failure")
        expect(engine.received.filter((r) => r.endsWith("request list"))).toEqual([
          "/listed/submission request list",
          "/unlisted/submission request list",
          "/list-refused/submission request list"
        ])
      })
  )

  it.effect("a data request the Transaction Engine does not answer is tried three times, then unavailable", () =>
    Effect.gen(function* () {
      const engine = yield* testEngine
      const hmrc = yield* adapterAt(`${engine.base}/500/submission`)
      const looking = yield* Effect.fork(
        Effect.either(hmrc.lookUpReturn({ correlationId: CORRELATION_ID, endpoint: "x" }, sandboxCredentials))
      )
      // Each failed try waits (1 s, then 2 s) on the test's clock before the next: once the
      // adapter waits so (the event loop given its turn meanwhile, for the engine's answer; the
      // exchange's own 30 s time-out is a wait too, and not this one), the clock is moved on.
      const eventLoopTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
      const retryWaiting = Effect.gen(function* () {
        const now = yield* TestClock.currentTimeMillis
        const sleeps = yield* Effect.zipRight(eventLoopTurn, TestClock.sleeps())
        return Chunk.some(sleeps, (wakeAt) => wakeAt <= now + 2000)
      })
      for (let retry = 0; retry < 2; retry++) {
        yield* Effect.repeat(retryWaiting, { until: (waiting) => waiting })
        yield* TestClock.adjust("2 seconds")
      }
      const result = yield* Fiber.join(looking)
      assert(result._tag === "Left")
      expect(result.left._tag).toBe("TaxAuthorityUnavailable")
      expect(engine.received).toEqual([
        "/500/submission request list",
        "/500/submission request list",
        "/500/submission request list"
      ])
    }).pipe(Effect.scoped)
  )

  it.scopedLive(
    "a poll answered with another acknowledgement is to be asked again at the endpoint it names, after its PollInterval",
    () =>
      Effect.gen(function* () {
        const engine = yield* testEngine
        const { hmrc, sent } = yield* sentTo(engine.base, "reacknowledged")
        expect(yield* hmrc.pollReturn(sent.acknowledgement)).toEqual({
          _tag: "Pending",
          acknowledgement: {
            correlationId: CORRELATION_ID,
            endpoint: `${engine.base}/reacknowledged/poll/2`,
            pollIntervalSeconds: 5
          }
        })
      })
  )

  it.scopedLive(
    "HMRC's receipt names the IRmark it received: its signature's digest, else its message's base32; the stub's own receipt names another",
    () =>
      Effect.gen(function* () {
        const engine = yield* testEngine
        for (const scenario of ["receipt", "base32-receipt"]) {
          const { hmrc, sent } = yield* sentTo(engine.base, scenario)
          const polled = yield* hmrc.pollReturn(sent.acknowledgement)
          assert(polled._tag === "Accepted")
          expect(polled.receipt.irmark).toBe(sent.irmark)
          expect(polled.receipt.message).toContain("HMRC has received the IR-CIS-CIS300MR document")
        }
        const { hmrc, sent } = yield* sentTo(engine.base, "stub-receipt")
        const polled = yield* hmrc.pollReturn(sent.acknowledgement)
        assert(polled._tag === "Accepted")
        expect(polled.receipt.irmark).toBe(STUB_RECEIPT_IRMARK)
        expect(polled.receipt.irmark).not.toBe(sent.irmark)
        expect(polled.receipt.message).toContain("The associated IRmark was: TBPJFWEAYSD4GFVRMHY7KLWEBHB5BLA5.")
      })
  )

  it.scopedLive("HMRC's authentication failure at a poll refuses the credentials, not the return", () =>
    Effect.gen(function* () {
      const engine = yield* testEngine
      const { hmrc, sent } = yield* sentTo(engine.base, "refused")
      const refused = yield* Effect.flip(hmrc.pollReturn(sent.acknowledgement))
      expect(refused._tag).toBe("CredentialsRefused")
      expect(refused.message).toContain("(1046)")
    })
  )

  it.scopedLive("a 5xx and a connection refused are the tax authority being unavailable", () =>
    Effect.gen(function* () {
      const engine = yield* testEngine
      const fiveHundred = yield* Effect.exit(
        (yield* adapterAt(`${engine.base}/500/submission`)).sendReturn(submission, sandboxCredentials)
      )
      expect(fiveHundred).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
      engine.close()
      const refused = yield* Effect.exit(
        (yield* adapterAt(`${engine.base}/fatal/submission`)).sendReturn(submission, sandboxCredentials)
      )
      expect(refused).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
    })
  )

  it.scopedLive("a verification refused by a fatal error carries the error's text", () =>
    Effect.gen(function* () {
      const engine = yield* testEngine
      expect(
        yield* (yield* adapterAt(`${engine.base}/fatal/submission`)).sendVerification(
          "R",
          verification,
          sandboxCredentials
        )
      ).toEqual({ _tag: "Refused", message: "Forced fatal error (stub) (1020)" })
    })
  )
})
