import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { SCHEME_NOT_SET } from "@cisbook/core/returns/ReturnRules"
import type { Acknowledgement, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import type { TaxAuthority, TaxAuthorityFailure } from "@cisbook/core/taxauthority/TaxAuthority"
import type { ReturnPoll, ReturnSent, ReturnSubmission, SentReturn } from "@cisbook/core/taxauthority/ReturnSubmission"
import { Effect, Option } from "effect"
import { cis300Return, payeScheme, transactionIdOf } from "../cis300/Cis300Return.js"
import { cis300Problems } from "../cis300/Cis300Rules.js"
import { cis300Envelope } from "./Cis300Envelope.js"
import { errorKind, reasonOf, receiptMessage } from "./GovTalkAnswer.js"
import { type GovTalkClass, govTalkMessage } from "./GovTalkMessage.js"
import { type GovTalkProtocol, irSenderOf } from "./GovTalkProtocol.js"
import { carriedIrMark } from "./IrMark.js"

const RETURN: GovTalkClass = "IR-CIS-CIS300MR"

/** Filing a monthly return (CIS300) with HMRC over GovTalk: the tax authority's returns. */
export const govTalkReturns = (protocol: GovTalkProtocol) => {
  const { acknowledgementOf, dropRefused, findSent, heldAt, notRefusal, poll, senderOf, submit } = protocol

  /** The return's GovTalk message and the IRmark it carries, or the rules of HMRC's it breaks. */
  const returnMessage = (submission: ReturnSubmission, credentials: SenderCredentials) => {
    const scheme = submission.contractor.scheme
    if (scheme === null) return { _tag: "Rejected", reason: SCHEME_NOT_SET } as const
    const document = cis300Return(submission, payeScheme(scheme), irSenderOf(credentials))
    const problems = cis300Problems(document)
    if (problems.length > 0) return { _tag: "Rejected", reason: problems.join(" ") } as const
    const message = govTalkMessage(
      {
        function: "submit",
        class: RETURN,
        transactionId: document.transactionId,
        keys: document.scheme,
        irEnvelope: cis300Envelope(document)
      },
      senderOf(credentials)
    )
    return { _tag: "Message", message, irmark: carriedIrMark(message) ?? "" } as const
  }

  const sendReturn = (
    submission: ReturnSubmission,
    credentials: SenderCredentials
  ): Effect.Effect<ReturnSent, TaxAuthorityFailure> =>
    Effect.gen(function* () {
      const built = returnMessage(submission, credentials)
      if (built._tag === "Rejected") return built
      const answer = yield* submit(built.message)
      switch (answer._tag) {
        case "Acknowledgement":
          return { _tag: "Acknowledged", acknowledgement: yield* acknowledgementOf(answer), irmark: built.irmark }
        case "Response":
          // Answered at once (HMRC does not, for CIS): polled at its endpoint, it answers the same.
          return {
            _tag: "Acknowledged",
            acknowledgement: yield* heldAt(answer.correlationId, answer.pollUrl),
            irmark: built.irmark
          }
        case "Error":
          if (errorKind(answer.errors) !== "Refusal") return yield* notRefusal(answer.errors)
          yield* dropRefused(RETURN, answer)
          return { _tag: "Rejected", reason: reasonOf(answer.errors) } as const
      }
    })

  const sentReturn = (
    submission: ReturnSubmission,
    credentials: SenderCredentials,
    acknowledgement: Acknowledgement
  ): SentReturn => {
    const built = returnMessage(submission, credentials)
    return { _tag: "Acknowledged", acknowledgement, irmark: built._tag === "Message" ? built.irmark : "" }
  }

  const findSentReturn = (submission: ReturnSubmission, credentials: SenderCredentials) =>
    Effect.map(
      findSent(RETURN, transactionIdOf(submission.id), credentials),
      Option.map((a) => sentReturn(submission, credentials, a))
    )

  const pollReturn = (
    sent: SentMessage,
    submission: ReturnSubmission,
    credentials: SenderCredentials
  ): Effect.Effect<ReturnPoll, TaxAuthorityFailure> =>
    Effect.gen(function* () {
      const polled = yield* poll(RETURN, sent, transactionIdOf(submission.id), credentials)
      switch (polled._tag) {
        // The answer stays at HMRC until the filer, having recorded it, deletes it (deleteReturnAnswer).
        case "Answer":
          return { _tag: "Accepted", message: receiptMessage(polled.body) } as const
        case "Refusal":
          return { _tag: "Rejected", reason: polled.reason } as const
        case "Pending":
          return polled
        case "Moved":
          return {
            _tag: "Resent",
            sent: sentReturn(submission, credentials, polled.acknowledgement),
            retryAfterMs: 0
          } as const
        case "SendAgain": {
          const again = yield* sendReturn(submission, credentials)
          if (again._tag === "Rejected") return again
          return {
            _tag: "Resent",
            sent: again,
            retryAfterMs: again.acknowledgement.pollIntervalSeconds * 1000
          } as const
        }
      }
    })

  return {
    sendReturn,
    findSentReturn,
    pollReturn,
    deleteReturnAnswer: protocol.deleteAnswer(RETURN)
  } satisfies Partial<TaxAuthority["Type"]>
}
