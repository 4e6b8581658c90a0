import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { SCHEME_NOT_SET } from "@cisbook/core/returns/ReturnRules"
import type { Acknowledgement, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import type { TaxAuthority, TaxAuthorityFailure } from "@cisbook/core/taxauthority/TaxAuthority"
import type { ReturnPoll, ReturnSent, ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import { Effect } from "effect"
import { cis300Return, payeScheme } from "../cis300/Cis300Return.js"
import { cis300Problems } from "../cis300/Cis300Rules.js"
import { cis300Envelope } from "./Cis300Envelope.js"
import { errorKind, reasonOf, receiptIrmark, receiptMessage } from "./GovTalkAnswer.js"
import { type GovTalkClass, govTalkMessage } from "./GovTalkMessage.js"
import { type GovTalkProtocol, irSenderOf } from "./GovTalkProtocol.js"
import { carriedIrMark } from "./IrMark.js"

const RETURN: GovTalkClass = "IR-CIS-CIS300MR"

/** Filing a monthly return (CIS300) with HMRC over GovTalk: the tax authority's returns. */
export const govTalkReturns = (protocol: GovTalkProtocol) => {
  const { acknowledgementOf, answeredAt, dropRefused, notRefusal, poll, senderOf, software, submit } = protocol

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
      const sent = (acknowledgement: Acknowledgement): ReturnSent => ({
        _tag: "Acknowledged",
        acknowledgement,
        irmark: built.irmark,
        gatewayTest: software.gatewayTest
      })
      switch (answer._tag) {
        case "Acknowledgement":
          return sent(yield* acknowledgementOf(answer))
        case "Response":
          return sent(yield* answeredAt(answer))
        case "Error":
          if (errorKind(answer.errors) !== "Refusal") return yield* notRefusal(answer.errors)
          yield* dropRefused(RETURN, answer)
          return { _tag: "Rejected", reason: reasonOf(answer.errors) } as const
      }
    })

  /** HMRC's answer at the return's endpoint; the answer stays there until the filer, having recorded it, deletes it. */
  const pollReturn = (sent: SentMessage): Effect.Effect<ReturnPoll, TaxAuthorityFailure> =>
    Effect.map(poll(RETURN, sent), (polled): ReturnPoll => {
      switch (polled._tag) {
        case "Answer":
          return {
            _tag: "Accepted",
            receipt: { message: receiptMessage(polled.body), irmark: receiptIrmark(polled.body) }
          }
        case "Refusal":
          return { _tag: "Rejected", reason: polled.reason }
        default:
          return polled
      }
    })

  return {
    sendReturn,
    pollReturn,
    lookUpReturn: (sent: SentMessage, credentials: SenderCredentials) => protocol.lookUp(RETURN, sent, credentials),
    deleteReturnAnswer: protocol.deleteAnswer(RETURN)
  } satisfies Partial<TaxAuthority["Type"]>
}
