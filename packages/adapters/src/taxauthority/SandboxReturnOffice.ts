import type { MonthlyReturnId } from "@cisbook/core/Ids"
import type {
  ReturnAnswer,
  ReturnPoll,
  ReturnSent,
  ReturnSubmission
} from "@cisbook/core/taxauthority/ReturnSubmission"
import { Effect, HashMap, Option, Ref } from "effect"
import { randomUUID } from "node:crypto"
import { cis300Return, type PayeScheme, transactionIdOf } from "./cis300/Cis300Return.js"
import { cis300Problems } from "./cis300/Cis300Rules.js"
import { govTalkCis300, type GovTalkSender } from "./cis300/GovTalkCis300.js"
import { sandboxReturnAnswer } from "./SandboxReturnAnswer.js"

/**
 * The PAYE scheme the sandbox files under: the tenant's CIS details hold no employer or Accounts
 * Office reference yet (see docs/hmrc-returns.md), so the sandbox stands in HMRC's own sample
 * reference, as its test service stands in test credentials.
 */
export const SANDBOX_PAYE_SCHEME: PayeScheme = {
  taxOfficeNumber: "123",
  taxOfficeReference: "AB456",
  accountsOfficeReference: "123PW12345678"
}

export const SANDBOX_SENDER: GovTalkSender = {
  senderId: "CISBOOKSANDBOX",
  password: "sandbox",
  gatewayTest: true,
  vendorId: "cisbook",
  product: "cisbook",
  version: "0.1.0"
}

/** A return the sandbox received: the GovTalk message sent, under which correlation id, with what answer. */
export interface ReceivedReturn {
  readonly correlationId: string
  readonly message: string
  readonly answer: ReturnAnswer
  /** How many times a return with this TransactionID was sent. */
  readonly received: number
}

/**
 * HMRC's Transaction Engine as the sandbox plays it, in memory: each return is built into the
 * GovTalk CIS300 message a real adapter sends and checked against HMRC's rules (a failing one is
 * refused unsent); one that passes is kept by its TransactionID under a new correlation id, with
 * the sandbox's answer (see sandboxReturnAnswer), ready at the first poll.
 */
export class SandboxReturnOffice extends Effect.Service<SandboxReturnOffice>()("adapters/SandboxReturnOffice", {
  effect: Effect.gen(function* () {
    const byTransaction = yield* Ref.make(HashMap.empty<string, ReceivedReturn>())

    const send = (submission: ReturnSubmission): Effect.Effect<ReturnSent> => {
      const document = cis300Return(submission, SANDBOX_PAYE_SCHEME)
      const problems = cis300Problems(document)
      if (problems.length > 0) return Effect.succeed({ _tag: "Rejected", reason: problems.join(" ") })
      const correlationId = randomUUID().replaceAll("-", "").toUpperCase()
      const message = govTalkCis300(document, SANDBOX_SENDER)
      return Ref.modify(byTransaction, (all) => {
        const before = Option.getOrUndefined(HashMap.get(all, document.transactionId))
        const received = {
          correlationId,
          message,
          answer: sandboxReturnAnswer(submission),
          received: (before?.received ?? 0) + 1
        }
        return [{ _tag: "Acknowledged", correlationId } as const, HashMap.set(all, document.transactionId, received)]
      })
    }

    /** What the sandbox holds of a return, by the return's id. */
    const received = (id: MonthlyReturnId) => Effect.map(Ref.get(byTransaction), HashMap.get(transactionIdOf(id)))

    const find = (id: MonthlyReturnId) =>
      Effect.map(
        received(id),
        Option.map((r) => r.correlationId)
      )

    // A correlation id from another process (the sandbox keeps nothing across processes) is
    // answered from the return itself, as the sandbox's answer depends on nothing else.
    const poll = (correlationId: string, submission: ReturnSubmission): Effect.Effect<ReturnPoll> =>
      Effect.map(Ref.get(byTransaction), (all) =>
        HashMap.findFirst(all, (r) => r.correlationId === correlationId).pipe(
          Option.match({ onSome: ([, r]) => r.answer, onNone: () => sandboxReturnAnswer(submission) })
        )
      )

    return { send, find, poll, received } as const
  })
}) {}
