import type { TaxTreatment } from "@cisbook/core/contacts/Contact"
import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import type { SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import type { TaxAuthority, TaxAuthorityFailure } from "@cisbook/core/taxauthority/TaxAuthority"
import type {
  VerificationAnswer,
  VerificationPoll,
  VerificationRequest,
  VerificationSent
} from "@cisbook/core/taxauthority/Verification"
import { Clock, Effect } from "effect"
import { createHash } from "node:crypto"
import { payeScheme } from "../cis300/Cis300Return.js"
import { cisVerifyEnvelope, taxMonthEnd } from "./CisVerifyEnvelope.js"
import { cisResponseSubcontractors, errorKind, reasonOf, text } from "./GovTalkAnswer.js"
import { type GovTalkClass, govTalkMessage } from "./GovTalkMessage.js"
import { type GovTalkProtocol, irSenderOf } from "./GovTalkProtocol.js"
import { apiVerificationNumber } from "./VerificationNumber.js"

const VERIFY: GovTalkClass = "IR-CIS-VERIFY"

const treatments: Record<string, TaxTreatment> = { gross: "Gross", net: "Net", unmatched: "Unmatched" }

/** A verification's TransactionID: 32 hexadecimal digits naming its request (GovTalk's TransactionID takes no more). */
export const verificationTransactionId = (reference: string) =>
  createHash("sha1").update(reference).digest("hex").slice(0, 32).toUpperCase()

/** Verifying subcontractors (CISrequest) with HMRC over GovTalk: the tax authority's verifications. */
export const govTalkVerifications = (protocol: GovTalkProtocol) => {
  const { acknowledgementOf, answeredAt, dropRefused, notRefusal, poll, senderOf, submit } = protocol

  /** HMRC's CISresponse for the one subcontractor asked about, as the contact's verification. */
  const verificationOf = (body: Record<string, unknown>): VerificationAnswer => {
    const [subcontractor] = cisResponseSubcontractors(body)
    const number = text(subcontractor?.["VerificationNumber"])
    const taxTreatment = treatments[text(subcontractor?.["TaxTreatment"]).toLowerCase()]
    if (subcontractor === undefined || number === "" || taxTreatment === undefined)
      return { _tag: "Refused", message: "HMRC's answer named no verification number and tax treatment." }
    return { _tag: "Matched", verificationNumber: apiVerificationNumber(number), taxTreatment }
  }

  const sendVerification = (
    reference: string,
    request: VerificationRequest,
    credentials: SenderCredentials
  ): Effect.Effect<VerificationSent, TaxAuthorityFailure> =>
    Effect.gen(function* () {
      const { contractor, subcontractor } = request
      if (contractor.utr === null)
        return {
          _tag: "Refused",
          message: "The contractor's own UTR (its CIS details) is needed to verify a subcontractor."
        } as const
      const scheme = payeScheme(contractor.scheme)
      const now = yield* Clock.currentTimeMillis
      const message = govTalkMessage(
        {
          function: "submit",
          class: VERIFY,
          transactionId: verificationTransactionId(reference),
          keys: scheme,
          irEnvelope: cisVerifyEnvelope({
            contractorUtr: contractor.utr,
            scheme,
            subcontractor,
            periodEnd: taxMonthEnd(new Date(now)),
            sender: irSenderOf(credentials)
          })
        },
        senderOf(credentials)
      )
      const answer = yield* submit(message)
      switch (answer._tag) {
        case "Acknowledgement":
          return { _tag: "Acknowledged", acknowledgement: yield* acknowledgementOf(answer) } as const
        case "Response":
          return { _tag: "Acknowledged", acknowledgement: yield* answeredAt(answer) } as const
        case "Error":
          if (errorKind(answer.errors) !== "Refusal") return yield* notRefusal(answer.errors)
          yield* dropRefused(VERIFY, answer)
          return { _tag: "Refused", message: reasonOf(answer.errors) } as const
      }
    })

  /** HMRC's answer at the request's endpoint (see pollReturn). */
  const pollVerification = (sent: SentMessage): Effect.Effect<VerificationPoll, TaxAuthorityFailure> =>
    Effect.map(poll(VERIFY, sent), (polled): VerificationPoll => {
      switch (polled._tag) {
        case "Answer":
          return verificationOf(polled.body)
        case "Refusal":
          return { _tag: "Refused", message: polled.reason }
        default:
          return polled
      }
    })

  return {
    sendVerification,
    pollVerification,
    lookUpVerification: (sent: SentMessage, credentials: SenderCredentials) =>
      protocol.lookUp(VERIFY, sent, credentials),
    deleteVerificationAnswer: protocol.deleteAnswer(VERIFY)
  } satisfies Partial<TaxAuthority["Type"]>
}
