import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { sandboxCredentials as credentials, SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import type { SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import type { ReturnPoll, ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import { CredentialsRefused, TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import type { VerificationPoll } from "@cisbook/core/taxauthority/Verification"
import { addEqualityTesters, assert, describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, type Layer, Option, Redacted, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { sampleCisScheme } from "../CisSchemeFixtures.js"

const details = Schema.decodeSync(CisDetails)

/** A return of one line; `deducted` £999.99 is the sandbox's way to a rejection. */
const aReturn = (deducted = 100_000): ReturnSubmission => ({
  id: MonthlyReturnId.make(randomUUID()),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme: sampleCisScheme }),
  nilReturn: false,
  inactive: false,
  lines: [
    new ReturnLine({
      contactId: ContactId.make(randomUUID()),
      contactCode: "BRICKS",
      name: "Bricks & Mortar Ltd",
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 600_000,
      materials: 100_000,
      deducted,
      cisDetails: details({ type: "Company", tradingName: "Bricks & Mortar Ltd", utr: "2234567890" })
    })
  ]
})

const verification = (lastName: string) => ({
  contractor: { utr: "8456789123", scheme: sampleCisScheme },
  subcontractor: details({ type: "SoleTrader", firstName: "Ann", lastName, utr: "2234567890" })
})

/** Credentials every implementation refuses, as HMRC refuses a wrong password (GovTalk's 1046). */
const refusedCredentials = new SenderCredentials({
  gatewayUserId: "CONTRACTOR1",
  password: Redacted.make("refused"),
  filer: "Contractor"
})

/** Polls, no sooner than each answer says, until the authority answers. */
const answerOf =
  <P extends ReturnPoll | VerificationPoll>(poll: (sent: SentMessage) => Effect.Effect<P, unknown>) =>
  (sent: SentMessage): Effect.Effect<Exclude<P, { readonly _tag: "Pending" }>, unknown> =>
    Effect.flatMap(poll(sent), (polled) =>
      polled._tag === "Pending"
        ? Effect.zipRight(Effect.sleep(Duration.millis(polled.retryAfterMs)), answerOf(poll)(sent))
        : Effect.succeed(polled as Exclude<P, { readonly _tag: "Pending" }>)
    )

/**
 * The tax authority port as every implementation must keep it: the in-memory fake, the GovTalk
 * adapter over the local Transaction Engine, and the adapter over HMRC's own answer documents.
 * The implementation answers as the sandbox does: a return whose deductions total £999.99 is
 * rejected, a subcontractor named Error is refused, any other is accepted or matched; the password
 * `refused` fails authentication (1046), at once or, as HMRC may, at the message's poll.
 */
export const taxAuthorityContract = <E>(name: string, authority: Layer.Layer<TaxAuthority, E>) => {
  addEqualityTesters()
  layer(authority, { timeout: "60 seconds", excludeTestServices: true })(name, (it) => {
    describe("TaxAuthority", () => {
      it.effect(
        "a return is acknowledged with a correlation id and a response endpoint, answered there with HMRC's receipt, and known no more once deleted",
        () =>
          Effect.gen(function* () {
            const hmrc = yield* TaxAuthority
            const submission = aReturn()
            const sent = yield* hmrc.sendReturn(submission, credentials)
            assert(sent._tag === "Acknowledged")
            const { acknowledgement } = sent
            expect(acknowledgement.correlationId).not.toBe("")
            expect(acknowledgement.endpoint).not.toBe("")
            expect(acknowledgement.pollIntervalSeconds).toBeGreaterThanOrEqual(0)
            expect(sent.irmark).not.toBe("")
            // Found again under the return's id, at the same correlation id (a filer that died before recording it).
            const found = yield* hmrc.findSentReturn(submission, credentials)
            expect(Option.map(found, (f) => [f.acknowledgement.correlationId, f.irmark])).toEqual(
              Option.some([acknowledgement.correlationId, sent.irmark])
            )
            const answer = yield* answerOf((s) => hmrc.pollReturn(s, submission, credentials))(acknowledgement)
            assert(answer._tag === "Accepted")
            // HMRC's receipt names the IRmark of what was sent.
            expect(answer.message).toContain(sent.irmark)
            // The answer stays until deleted: polled again, the same answer.
            expect(yield* answerOf((s) => hmrc.pollReturn(s, submission, credentials))(acknowledgement)).toEqual(answer)
            yield* hmrc.deleteReturnAnswer(acknowledgement)
            expect(yield* hmrc.findSentReturn(submission, credentials)).toEqual(Option.none())
          })
      )

      it.effect("a return never sent is not found", () =>
        Effect.gen(function* () {
          const hmrc = yield* TaxAuthority
          expect(yield* hmrc.findSentReturn(aReturn(), credentials)).toEqual(Option.none())
        })
      )

      it.effect("a return whose deductions total £999.99 is rejected with the authority's reason", () =>
        Effect.gen(function* () {
          const hmrc = yield* TaxAuthority
          const submission = aReturn(99_999)
          const sent = yield* hmrc.sendReturn(submission, credentials)
          const answer =
            sent._tag === "Rejected"
              ? sent
              : yield* answerOf((s) => hmrc.pollReturn(s, submission, credentials))(sent.acknowledgement)
          assert(answer._tag === "Rejected")
          expect(answer.reason).toContain("999.99")
        })
      )

      it.effect(
        "a poll of a correlation id the authority no longer holds never rejects the return: it is sent again",
        () =>
          Effect.gen(function* () {
            const hmrc = yield* TaxAuthority
            const submission = aReturn()
            const sent = yield* hmrc.sendReturn(submission, credentials)
            assert(sent._tag === "Acknowledged")
            yield* answerOf((s) => hmrc.pollReturn(s, submission, credentials))(sent.acknowledgement)
            yield* hmrc.deleteReturnAnswer(sent.acknowledgement)
            const polled = yield* hmrc.pollReturn(sent.acknowledgement, submission, credentials)
            assert(polled._tag === "Resent")
            expect(polled.sent.acknowledgement.correlationId).not.toBe(sent.acknowledgement.correlationId)
            const answer = yield* answerOf((s) => hmrc.pollReturn(s, submission, credentials))(
              polled.sent.acknowledgement
            )
            expect(answer._tag).toBe("Accepted")
            yield* hmrc.deleteReturnAnswer(polled.sent.acknowledgement)
          })
      )

      it.effect(
        "a verification is acknowledged, answered at its endpoint with a verification number, and deleted",
        () =>
          Effect.gen(function* () {
            const hmrc = yield* TaxAuthority
            const reference = randomUUID()
            const request = verification("Ash")
            const sent = yield* hmrc.sendVerification(reference, request, credentials)
            assert(sent._tag === "Acknowledged")
            expect(
              Option.map(yield* hmrc.findSentVerification(reference, credentials), (found) => found.correlationId)
            ).toEqual(Option.some(sent.acknowledgement.correlationId))
            const answer = yield* answerOf((s) => hmrc.pollVerification(s, reference, request, credentials))(
              sent.acknowledgement
            )
            assert(answer._tag === "Matched")
            expect(answer.verificationNumber).toMatch(/^V\d{10}(\/A)?$/)
            yield* hmrc.deleteVerificationAnswer(sent.acknowledgement)
            expect(yield* hmrc.findSentVerification(reference, credentials)).toEqual(Option.none())
          })
      )

      it.effect("a subcontractor the authority cannot match is refused with its message", () =>
        Effect.gen(function* () {
          const hmrc = yield* TaxAuthority
          const reference = randomUUID()
          const request = verification("Error")
          const sent = yield* hmrc.sendVerification(reference, request, credentials)
          const answer =
            sent._tag === "Acknowledged"
              ? yield* answerOf((s) => hmrc.pollVerification(s, reference, request, credentials))(sent.acknowledgement)
              : sent
          assert(answer._tag === "Refused")
          expect(answer.message).not.toBe("")
        })
      )

      it.effect(
        "credentials the authority refuses fail CredentialsRefused, at sending or at the poll, never as an answer; an agent's are taken",
        () =>
          Effect.gen(function* () {
            const hmrc = yield* TaxAuthority
            const submission = aReturn()
            const returned = yield* Effect.flip(
              Effect.flatMap(hmrc.sendReturn(submission, refusedCredentials), (sent) =>
                sent._tag === "Acknowledged"
                  ? answerOf((s) => hmrc.pollReturn(s, submission, refusedCredentials))(sent.acknowledgement)
                  : Effect.succeed(sent)
              )
            )
            expect(returned).toBeInstanceOf(CredentialsRefused)
            expect((returned as CredentialsRefused).message).toContain("1046")
            // Not taken: not found as sent (with good credentials), and its data request refused with the bad ones.
            expect(yield* hmrc.findSentReturn(submission, credentials)).toEqual(Option.none())
            expect(yield* Effect.flip(hmrc.findSentReturn(submission, refusedCredentials))).toBeInstanceOf(
              CredentialsRefused
            )
            const reference = randomUUID()
            const request = verification("Ash")
            const verified = yield* Effect.flip(
              Effect.flatMap(hmrc.sendVerification(reference, request, refusedCredentials), (sent) =>
                sent._tag === "Acknowledged"
                  ? answerOf((s) => hmrc.pollVerification(s, reference, request, refusedCredentials))(
                      sent.acknowledgement
                    )
                  : Effect.succeed(sent)
              )
            )
            expect(verified).toBeInstanceOf(CredentialsRefused)
            // An agent's credentials are taken like a contractor's.
            const agent = new SenderCredentials({
              gatewayUserId: "AGENT1",
              password: Redacted.make("x"),
              filer: "Agent"
            })
            const sent = yield* hmrc.sendReturn(aReturn(), agent)
            expect(sent._tag).toBe("Acknowledged")
          })
      )
    })
  })
}
