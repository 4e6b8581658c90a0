import { sandboxCredentials, SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import {
  GOVTALK_ENGINE_PATH,
  GOVTALK_ENGINE_SUBMISSION,
  SANDBOX_SOFTWARE
} from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { govTalkTaxAuthority } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTaxAuthority"
import { govTalkExchange } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTransport"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { utrCheckDigit } from "@cisbook/core/cis/Utr"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { CredentialsRefused, TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import type { ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import { FetchHttpClient, HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { engineReceived, GovTalkEngineServer } from "./GovTalkSandbox.js"

const details = Schema.decodeSync(CisDetails)
const scheme = Schema.decodeSync(CisScheme)({
  employerReference: "123/AB456",
  accountsOfficeReference: "123PW12345678"
})

/** The adapter over the engine the test serves; a new one knows nothing of earlier acknowledgements. */
const adapter = Effect.flatMap(
  HttpServer.addressWith((address) =>
    Effect.succeed(`${HttpServer.formatAddress(address)}${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`)
  ),
  (url) => Effect.provide(TaxAuthority, govTalkTaxAuthority({ url, software: SANDBOX_SOFTWARE }))
)

const aReturn = (deducted: number, utr = "2234567890"): ReturnSubmission => ({
  id: MonthlyReturnId.make(randomUUID()),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme }),
  nilReturn: false,
  inactive: false,
  lines: [
    new ReturnLine({
      contactId: ContactId.make(randomUUID()),
      contactCode: "BRICKS",
      name: "Bricks & Mortar Ltd",
      utr,
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 600_000,
      materials: 100_000,
      deducted,
      cisDetails: details({ type: "Company", tradingName: "Bricks & Mortar Ltd", utr })
    })
  ]
})

const verification = (subcontractor: Record<string, string>) => ({
  contractor: { utr: "8456789123", scheme },
  subcontractor: details(subcontractor as never)
})

/** A valid UTR whose last digit is `last`. */
const utrEndingIn = (last: number) => {
  const nine = `23456789${last}`
  return `${utrCheckDigit(nine)}${nine}`
}

/** A sole trader's verification request. */
const soleTrader = (fields: Record<string, string>) =>
  verification({ type: "SoleTrader", firstName: "Ann", lastName: "O'Ash", ...fields })

layer(GovTalkEngineServer.pipe(Layer.provideMerge(EphemeralDatabase)), {
  excludeTestServices: true,
  timeout: "60 seconds"
})("the GovTalk adapter and the local Transaction Engine over HTTP", (it) => {
  it.effect("a return: acknowledged, polled no sooner than the PollInterval, accepted, then deleted when asked", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const submission = aReturn(100_000)
      const sent = yield* hmrc.sendReturn(submission, sandboxCredentials)
      expect(sent._tag).toBe("Acknowledged")
      const correlationId = sent._tag === "Acknowledged" ? sent.correlationId : ""
      expect(correlationId).toMatch(/^[0-9A-F]{32}$/)
      expect(yield* hmrc.findSentReturn(submission.id, sandboxCredentials)).toEqual(Option.some(correlationId))

      // The adapter knows the interval: it does not ask before it passed.
      const waiting = yield* hmrc.pollReturn(correlationId, submission, sandboxCredentials)
      expect(waiting._tag).toBe("Pending")
      expect(waiting._tag === "Pending" && waiting.retryAfterMs).toBeGreaterThan(500)
      expect((yield* engineReceived(submission.id))[0]?.earlyPolls).toBe(0)

      // An adapter that lost the acknowledgement (a new process) asks at once: the engine acknowledges again.
      const fresh = yield* adapter
      expect((yield* fresh.pollReturn(correlationId, submission, sandboxCredentials))._tag).toBe("Pending")
      expect((yield* engineReceived(submission.id))[0]?.earlyPolls).toBe(1)

      yield* Effect.sleep(Duration.millis(waiting._tag === "Pending" ? waiting.retryAfterMs : 0))
      expect(yield* hmrc.pollReturn(correlationId, submission, sandboxCredentials)).toEqual({ _tag: "Accepted" })
      // The answer stays until the filer, having recorded it, deletes it: a poll gets it again.
      expect((yield* engineReceived(submission.id))[0]?.deletedAt).toBeNull()
      expect(yield* (yield* adapter).pollReturn(correlationId, submission, sandboxCredentials)).toEqual({
        _tag: "Accepted"
      })
      yield* hmrc.deleteReturnAnswer(correlationId)
      const [held] = yield* engineReceived(submission.id)
      expect(held?.deletedAt).not.toBeNull()
      expect(yield* hmrc.findSentReturn(submission.id, sandboxCredentials)).toEqual(Option.none())
      // Deleted twice: HMRC knows the correlation id no more, which the filer only logs.
      const again = yield* Effect.flip(hmrc.deleteReturnAnswer(correlationId))
      expect(again.message).toContain("Unknown CorrelationID (2000)")
    })
  )

  it.effect("a nil return (inactive): acknowledged and accepted like any other", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const nil: ReturnSubmission = { ...aReturn(0), lines: [], nilReturn: true, inactive: true }
      const sent = yield* hmrc.sendReturn(nil, sandboxCredentials)
      assert(sent._tag === "Acknowledged")
      yield* Effect.sleep(Duration.seconds(1))
      expect(yield* hmrc.pollReturn(sent.correlationId, nil, sandboxCredentials)).toEqual({ _tag: "Accepted" })
      expect(yield* engineReceived(nil.id)).toHaveLength(1)
    })
  )

  it.effect("a return whose deductions total £999.99: HMRC's business error, every error's text in the reason", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const submission = aReturn(99_999)
      const sent = yield* hmrc.sendReturn(submission, sandboxCredentials)
      const correlationId = sent._tag === "Acknowledged" ? sent.correlationId : ""
      yield* Effect.sleep(Duration.seconds(1))
      const answer = yield* hmrc.pollReturn(correlationId, submission, sandboxCredentials)
      expect(answer._tag).toBe("Rejected")
      const reason = answer._tag === "Rejected" ? answer.reason : ""
      expect(reason).toContain("Your submission failed due to business validation errors")
      expect(reason).toContain("The total deducted (£999.99) does not agree with the payments made.")
      expect((yield* engineReceived(submission.id))[0]?.deletedAt).toBeNull()
      yield* hmrc.deleteReturnAnswer(correlationId)
      expect((yield* engineReceived(submission.id))[0]?.deletedAt).not.toBeNull()
    })
  )

  it.effect("credentials the engine refuses (the password refused): HMRC's 1046, not an answer; nothing is held", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const refused = new SenderCredentials({
        gatewayUserId: "CONTRACTOR1",
        password: Redacted.make("refused"),
        filer: "Contractor"
      })
      const submission = aReturn(1000_00)
      const sent = yield* Effect.flip(hmrc.sendReturn(submission, refused))
      expect(sent).toBeInstanceOf(CredentialsRefused)
      expect(sent.message).toContain("(1046)")
      expect(yield* Effect.flip(hmrc.findSentReturn(submission.id, refused))).toBeInstanceOf(CredentialsRefused)
      expect(yield* Effect.flip(hmrc.verify(soleTrader({ utr: utrEndingIn(2) }), refused))).toBeInstanceOf(
        CredentialsRefused
      )
      expect(yield* engineReceived(submission.id)).toEqual([])
      // Any other password is taken, an agent's as a contractor's.
      const agent = new SenderCredentials({ gatewayUserId: "AGENT1", password: Redacted.make("x"), filer: "Agent" })
      expect((yield* hmrc.sendReturn(submission, agent))._tag).toBe("Acknowledged")
    })
  )

  it.effect("the engine refuses a message whose IRmark is wrong with HMRC's error 2021", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const submission = aReturn(100_000)
      const url = yield* HttpServer.addressWith((a) =>
        Effect.succeed(`${HttpServer.formatAddress(a)}${GOVTALK_ENGINE_PATH}${GOVTALK_ENGINE_SUBMISSION}`)
      )
      // The adapter's own message, altered after its IRmark was computed.
      const { govTalkMessage } = yield* Effect.promise(
        () => import("@cisbook/adapters/taxauthority/govtalk/GovTalkMessage")
      )
      const { cis300Envelope } = yield* Effect.promise(
        () => import("@cisbook/adapters/taxauthority/govtalk/Cis300Envelope")
      )
      const { cis300Return } = yield* Effect.promise(() => import("@cisbook/adapters/taxauthority/cis300/Cis300Return"))
      const keys = { taxOfficeNumber: "123", taxOfficeReference: "AB456", accountsOfficeReference: "123PW12345678" }
      const document = cis300Return(submission, keys)
      const message = govTalkMessage(
        {
          function: "submit",
          class: "IR-CIS-CIS300MR",
          transactionId: document.transactionId,
          keys,
          irEnvelope: cis300Envelope(document)
        },
        {
          ...SANDBOX_SOFTWARE,
          senderId: sandboxCredentials.gatewayUserId,
          password: sandboxCredentials.password
        }
      ).replace("<TotalDeducted>1000.00</TotalDeducted>", "<TotalDeducted>1.00</TotalDeducted>")
      const answer = yield* govTalkExchange(url, message).pipe(Effect.provide(FetchHttpClient.layer))
      expect(answer).toMatchObject({ _tag: "Error" })
      expect(answer._tag === "Error" && answer.errors.map((e) => e.number)).toEqual(["3001", "2021"])
      expect(yield* engineReceived(submission.id)).toEqual([])
      // The untouched message is taken.
      expect((yield* hmrc.sendReturn(submission, sandboxCredentials))._tag).toBe("Acknowledged")
    })
  )

  it.effect("a verification: the UTR's last digit picks the treatment; an unmatched number is written with /A", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const answers = yield* Effect.forEach(
        Array.from({ length: 10 }, (_, digit) => soleTrader({ utr: utrEndingIn(digit) })),
        (request) => hmrc.verify(request, sandboxCredentials),
        { concurrency: "unbounded" }
      )
      expect(answers.map((a) => (a._tag === "Matched" ? a.taxTreatment : a.message))).toEqual([
        ...Array(7).fill("Net"),
        "Gross",
        "Gross",
        "Unmatched"
      ])
      expect(answers[3]).toMatchObject({ verificationNumber: expect.stringMatching(/^V\d{10}$/) })
      expect(answers[9]).toMatchObject({ verificationNumber: expect.stringMatching(/^V\d{10}\/A$/) })
      // The same identity, the same number.
      expect(yield* hmrc.verify(soleTrader({ utr: utrEndingIn(3) }), sandboxCredentials)).toEqual(answers[3])
      // Asked, polled and deleted: the engine holds nothing of them.
      const held = yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ n: number }>`
          SELECT count(*)::int AS n FROM govtalk_engine_messages WHERE class = 'IR-CIS-VERIFY' AND deleted_at IS NULL`
      )
      expect(held[0]?.n).toBe(0)
    })
  )

  it.effect("a verification refused: a name Error, an incomplete identity; the error's text is the message", () =>
    Effect.gen(function* () {
      const hmrc = yield* adapter
      const refused = yield* hmrc.verify(soleTrader({ lastName: "Error", utr: utrEndingIn(1) }), sandboxCredentials)
      expect(refused).toMatchObject({ _tag: "Refused" })
      expect(refused._tag === "Refused" && refused.message).toContain(
        "The details given do not match HMRC's records for this subcontractor."
      )
      const company = yield* hmrc.verify(
        verification({ type: "Company", tradingName: "Error", utr: utrEndingIn(1) }),
        sandboxCredentials
      )
      expect(company._tag).toBe("Refused")
      const incomplete = yield* hmrc.verify(soleTrader({ firstName: "", utr: utrEndingIn(1) }), sandboxCredentials)
      expect(incomplete._tag === "Refused" && incomplete.message).toContain("cannot be verified without: firstName")
    })
  )
})
