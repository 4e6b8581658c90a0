import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { sandboxCredentials as credentials, SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import type { SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import type { ReturnPoll, ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import { CredentialsRefused, TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import type { VerificationPoll } from "@cisbook/core/taxauthority/Verification"
import { addEqualityTesters, assert, describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, type Layer, Redacted, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { sampleCisScheme } from "../CisSchemeFixtures.js"
import { submittedDeclarations } from "../DeclarationsFixtures.js"

const details = Schema.decodeSync(CisDetails)

/** A return of one line; `deducted` £999.99 is the sandbox's way to a rejection. */
const aReturn = (deducted = 100_000): ReturnSubmission => ({
  id: MonthlyReturnId.make(randomUUID()),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme: sampleCisScheme }),
  nilReturn: false,
  inactive: false,
  declarations: submittedDeclarations(),
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

type Final<P> = Exclude<P, { readonly _tag: "Pending" }>

/** Polls, no sooner than each acknowledgement says and at the endpoint it names, until the authority answers. */
const answerOf =
  <P extends ReturnPoll | VerificationPoll>(poll: (sent: SentMessage) => Effect.Effect<P, unknown>) =>
  (sent: SentMessage): Effect.Effect<Final<P>, unknown> =>
    Effect.flatMap(poll(sent), (polled) =>
      polled._tag === "Pending"
        ? Effect.zipRight(
            Effect.sleep(Duration.seconds(polled.acknowledgement.pollIntervalSeconds)),
            answerOf(poll)(polled.acknowledgement)
          )
        : Effect.succeed(polled as Final<P>)
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
        "a return is acknowledged at a response endpoint, answered there with a receipt naming the IRmark sent until deleted, then unknown; HMRC's data request records it only while HMRC holds it",
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
            // HMRC's data request records the correlation id while HMRC holds the return.
            expect((yield* hmrc.lookUpReturn(acknowledgement, credentials))._tag).toBe("Recorded")
            const answer = yield* answerOf(hmrc.pollReturn)(acknowledgement)
            assert(answer._tag === "Accepted")
            // HMRC's receipt names the IRmark of what was sent.
            expect(answer.receipt.irmark).toBe(sent.irmark)
            expect(answer.receipt.message).not.toBe("")
            // The answer stays until deleted: polled again, the same answer.
            expect(yield* answerOf(hmrc.pollReturn)(acknowledgement)).toEqual(answer)
            yield* hmrc.deleteReturnAnswer(acknowledgement)
            // Deleted, the correlation id is unknown: a poll's outcome is unknown, never a rejection.
            expect((yield* hmrc.pollReturn(acknowledgement))._tag).toBe("Unknown")
            expect(yield* hmrc.lookUpReturn(acknowledgement, credentials)).toEqual({ _tag: "NotRecorded" })
          })
      )

      it.effect("a return whose deductions total £999.99 is rejected with every error's text and number", () =>
        Effect.gen(function* () {
          const hmrc = yield* TaxAuthority
          const submission = aReturn(99_999)
          const sent = yield* hmrc.sendReturn(submission, credentials)
          const answer = sent._tag === "Rejected" ? sent : yield* answerOf(hmrc.pollReturn)(sent.acknowledgement)
          assert(answer._tag === "Rejected")
          expect(answer.reason).toMatch(/\S.* \(\d{4}\)$/)
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
            expect((yield* hmrc.lookUpVerification(sent.acknowledgement, credentials))._tag).toBe("Recorded")
            const answer = yield* answerOf(hmrc.pollVerification)(sent.acknowledgement)
            assert(answer._tag === "Matched")
            expect(answer.verificationNumber).toMatch(/^V\d{10}(\/A)?$/)
            yield* hmrc.deleteVerificationAnswer(sent.acknowledgement)
            expect((yield* hmrc.pollVerification(sent.acknowledgement))._tag).toBe("Unknown")
            expect(yield* hmrc.lookUpVerification(sent.acknowledgement, credentials)).toEqual({ _tag: "NotRecorded" })
          })
      )

      it.effect("a subcontractor the authority cannot match is refused with its message", () =>
        Effect.gen(function* () {
          const hmrc = yield* TaxAuthority
          const reference = randomUUID()
          const request = verification("Error")
          const sent = yield* hmrc.sendVerification(reference, request, credentials)
          const answer =
            sent._tag === "Acknowledged" ? yield* answerOf(hmrc.pollVerification)(sent.acknowledgement) : sent
          assert(answer._tag === "Refused")
          expect(answer.message).not.toBe("")
        })
      )

      it.effect(
        "credentials the authority refuses fail CredentialsRefused, at sending or at the poll, never as an answer; its data request refuses them; an agent's are taken",
        () =>
          Effect.gen(function* () {
            const hmrc = yield* TaxAuthority
            const submission = aReturn()
            const returned = yield* Effect.flip(
              Effect.flatMap(hmrc.sendReturn(submission, refusedCredentials), (sent) =>
                sent._tag === "Acknowledged" ? answerOf(hmrc.pollReturn)(sent.acknowledgement) : Effect.succeed(sent)
              )
            )
            expect(returned).toBeInstanceOf(CredentialsRefused)
            expect((returned as CredentialsRefused).message).toContain("1046")
            const reference = randomUUID()
            const request = verification("Ash")
            const verified = yield* Effect.flip(
              Effect.flatMap(hmrc.sendVerification(reference, request, refusedCredentials), (sent) =>
                sent._tag === "Acknowledged"
                  ? answerOf(hmrc.pollVerification)(sent.acknowledgement)
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
            assert(sent._tag === "Acknowledged")
            // HMRC's data request, asked with credentials it refuses, is refused: it says nothing of the return.
            const listed = yield* hmrc.lookUpReturn(sent.acknowledgement, refusedCredentials)
            assert(listed._tag === "Refused")
            expect(listed.reason).toContain("1046")
          })
      )
    })
  })
}
