import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { XMLParser } from "fast-xml-parser"
import { randomUUID } from "node:crypto"
import { acknowledgement, deleteAnswer, type EngineError, errorAnswer, listAnswer } from "./EngineDocuments.js"
import { expectedIrMark } from "./EngineIrMark.js"
import { returnAnswer } from "./EngineReturns.js"
import { BUSINESS_FAILURE } from "./EngineRules.js"
import { verificationAnswer } from "./EngineVerifications.js"
import { type AnswerBase, record, text, type Xml } from "./EngineMessage.js"

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ["Subcontractor", "Fore", "Key"].includes(name)
})

/** The answer a message of a class comes to once its poll interval passed. */
type FinalAnswer = (envelope: Xml, base: AnswerBase, irMark: string) => string

/** The message classes the engine takes, each with its final answer. */
const answers: Record<string, FinalAnswer> = {
  "IR-CIS-CIS300MR": returnAnswer,
  "IR-CIS-VERIFY": verificationAnswer
}

const gateway = (number: string, type: "business" | "fatal", text: string): EngineError => ({
  raisedBy: "Gateway",
  number,
  type,
  text
})

const keysOf = (keys: unknown) =>
  ((record(keys)["Key"] as Array<unknown> | undefined) ?? [])
    .map((key) => `${String(record(key)["@Type"] ?? "")}=${text(key)}`)
    .sort()
    .join(",")

interface Row {
  readonly correlationId: string
  readonly transactionId: string
  readonly receivedAt: Date
  readonly readyAt: Date
  readonly answer: string
}

export interface EngineReply {
  readonly status: number
  readonly body: string
}

export interface TransactionEngineOptions {
  /** The PollInterval (seconds) of an acknowledgement: a poll before it passed is acknowledged again. */
  readonly pollIntervalSeconds: number
}

/** The password the engine refuses, as HMRC refuses a wrong one: the way for a test to see it. */
export const REFUSED_PASSWORD = "refused"

/** Whether the message's IDAuthentication passes: any user id with any password but `refused`. */
const authenticates = (auth: Xml) => {
  const password = text(record(auth["Authentication"])["Value"])
  return text(auth["SenderID"]) !== "" && password !== "" && password !== REFUSED_PASSWORD
}

/** HMRC's answer to credentials that fail: GovTalk error 1046, raised by the Gateway. */
const authenticationFailure = (base: Parameters<typeof errorAnswer>[0]) =>
  errorAnswer(
    base,
    [
      gateway(
        "1046",
        "fatal",
        "Authentication Failure. The supplied user credentials failed validation for the requested service."
      )
    ],
    []
  )

/**
 * A GovTalk Transaction Engine standing in for HMRC's: takes CIS300 returns (IR-CIS-CIS300MR)
 * and verifications (IR-CIS-VERIFY) as HMRC's documents, checks their IRmark and keys,
 * acknowledges them with a correlation id and a PollInterval, answers a poll with HMRC's
 * response or error once the interval passed (the sandbox's rules, see EngineRules), forgets a
 * message on `delete`, and lists what it holds of a class (`list`, a StatusReport). It takes any
 * Government Gateway user id with any password but `refused`, which fails authentication (1046). Its state is
 * in the service's database, so that any process can poll what another sent.
 */
export const makeTransactionEngine = (options: TransactionEngineOptions) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const ok = (body: string): EngineReply => ({ status: 200, body })

    const submit = (
      messageClass: string,
      answerOf: FinalAnswer,
      message: Xml,
      xml: string,
      pollUrl: string,
      at: Date
    ) =>
      Effect.gen(function* () {
        const details = record(record(message["Header"])["MessageDetails"])
        const transactionId = text(details["TransactionID"])
        const auth = record(record(record(message["Header"])["SenderDetails"])["IDAuthentication"])
        const senderId = text(auth["SenderID"])
        const correlationId = randomUUID().replaceAll("-", "").toUpperCase()
        const base = { class: messageClass, function: "submit", correlationId, transactionId, at }
        if (!authenticates(auth)) return ok(authenticationFailure(base))
        const envelope = record(record(message["Body"])["IRenvelope"])
        const header = record(envelope["IRheader"])
        const carried = text(header["IRmark"])
        const irMark = expectedIrMark(xml)
        if (carried === "" || carried !== irMark)
          return ok(
            errorAnswer(
              base,
              [BUSINESS_FAILURE],
              [
                {
                  raisedBy: "ChRIS",
                  number: "2021",
                  type: "business",
                  text: "The supplied IRmark is incorrect.",
                  location: "IRmark"
                }
              ]
            )
          )
        if (keysOf(record(message["GovTalkDetails"])["Keys"]) !== keysOf(header["Keys"]))
          return ok(
            errorAnswer(
              base,
              [BUSINESS_FAILURE],
              [
                {
                  raisedBy: "System",
                  number: "5005",
                  type: "business",
                  text: "Keys in the GovTalkDetails do not match those in the IRheader."
                }
              ]
            )
          )
        const answer = answerOf(envelope, base, irMark)
        const readyAt = new Date(at.getTime() + options.pollIntervalSeconds * 1000)
        yield* sql`INSERT INTO govtalk_engine_messages ${sql.insert({
          correlationId,
          class: messageClass,
          transactionId,
          senderId,
          receivedAt: at,
          readyAt,
          answer
        })}`
        return ok(acknowledgement({ ...base, endPoint: { url: pollUrl, pollInterval: options.pollIntervalSeconds } }))
      })

    const held = (messageClass: string, correlationId: string) =>
      sql<Row>`
        SELECT correlation_id, transaction_id, received_at, ready_at, answer FROM govtalk_engine_messages
        WHERE class = ${messageClass} AND correlation_id = ${correlationId} AND deleted_at IS NULL`.pipe(
        Effect.map((rows) => rows[0])
      )

    const unknownCorrelation = (messageClass: string, fn: string, correlationId: string, at: Date) =>
      ok(
        errorAnswer(
          { class: messageClass, function: fn, correlationId, at },
          [gateway("2000", "fatal", "Unknown CorrelationID")],
          []
        )
      )

    const poll = (messageClass: string, correlationId: string, pollUrl: string, at: Date) =>
      Effect.gen(function* () {
        const row = yield* held(messageClass, correlationId)
        if (row === undefined) return unknownCorrelation(messageClass, "submit", correlationId, at)
        if (at < row.readyAt) {
          yield* sql`UPDATE govtalk_engine_messages SET early_polls = early_polls + 1 WHERE correlation_id = ${correlationId}`
          const wait = Math.max(1, Math.ceil((row.readyAt.getTime() - at.getTime()) / 1000))
          return ok(
            acknowledgement({
              class: messageClass,
              function: "submit",
              correlationId,
              transactionId: row.transactionId,
              at,
              endPoint: { url: pollUrl, pollInterval: wait }
            })
          )
        }
        return ok(row.answer)
      })

    const remove = (messageClass: string, correlationId: string, at: Date) =>
      Effect.gen(function* () {
        const deleted = yield* sql`
          UPDATE govtalk_engine_messages SET deleted_at = ${at}
          WHERE class = ${messageClass} AND correlation_id = ${correlationId} AND deleted_at IS NULL
          RETURNING correlation_id`
        if (deleted.length === 0) return unknownCorrelation(messageClass, "delete", correlationId, at)
        return ok(deleteAnswer({ class: messageClass, correlationId, at }))
      })

    const listHeld = (messageClass: string, senderId: string, pollUrl: string, at: Date) =>
      Effect.map(
        sql<Row>`
          SELECT correlation_id, transaction_id, received_at, ready_at, answer FROM govtalk_engine_messages
          WHERE class = ${messageClass} AND sender_id = ${senderId} AND deleted_at IS NULL ORDER BY received_at`,
        (rows) =>
          ok(
            listAnswer(
              {
                class: messageClass,
                correlationId: "",
                at,
                endPoint: { url: pollUrl, pollInterval: options.pollIntervalSeconds }
              },
              senderId,
              rows.map((row) => ({
                correlationId: row.correlationId,
                transactionId: row.transactionId,
                receivedAt: row.receivedAt,
                status:
                  at < row.readyAt
                    ? "SUBMISSION_ACKNOWLEDGEMENT"
                    : row.answer.includes("<Qualifier>error</Qualifier>")
                      ? "SUBMISSION_ERROR"
                      : "SUBMISSION_RESPONSE"
              }))
            )
          )
      )

    /**
     * Answers one GovTalk message posted to the engine at `endpoint`: its submission URL, which
     * takes submissions and data requests, or its response endpoint (`pollUrl`, which its
     * acknowledgements name), which takes polls and deletes. A message at the wrong one is refused,
     * as HMRC's Transaction Engine refuses it.
     */
    const handle = (xml: string, pollUrl: string, endpoint: "submission" | "response"): Effect.Effect<EngineReply> =>
      Effect.gen(function* () {
        const at = new Date(yield* Clock.currentTimeMillis)
        let message: Xml
        try {
          message = record(record(parser.parse(xml))["GovTalkMessage"])
        } catch {
          message = {}
        }
        const details = record(record(message["Header"])["MessageDetails"])
        const messageClass = text(details["Class"])
        const correlationId = text(details["CorrelationID"])
        const base = { class: messageClass, function: text(details["Function"]), correlationId, at }
        const answerOf = answers[messageClass]
        if (answerOf === undefined)
          return ok(
            errorAnswer(
              base,
              [
                gateway(
                  "1001",
                  "fatal",
                  "The submitted XML document failed validation: it is not a GovTalk message of a class this service takes."
                )
              ],
              []
            )
          )
        const qualifier = text(details["Qualifier"])
        const fn = text(details["Function"])
        const atResponseEndpoint = qualifier === "poll" || (qualifier === "request" && fn === "delete")
        if (atResponseEndpoint !== (endpoint === "response"))
          return ok(
            errorAnswer(
              base,
              [
                gateway(
                  "1002",
                  "fatal",
                  atResponseEndpoint
                    ? "A poll or delete request is taken only at the ResponseEndPoint the acknowledgement named, not at the submission URL."
                    : "A submission or data request is taken only at the submission URL, not at a ResponseEndPoint."
                )
              ],
              []
            )
          )
        if (qualifier === "request" && fn === "submit")
          return yield* submit(messageClass, answerOf, message, xml, pollUrl, at)
        if (qualifier === "poll") return yield* poll(messageClass, correlationId, pollUrl, at)
        if (qualifier === "request" && fn === "delete") return yield* remove(messageClass, correlationId, at)
        if (qualifier === "request" && fn === "list") {
          const auth = record(record(record(message["Header"])["SenderDetails"])["IDAuthentication"])
          if (!authenticates(auth)) return ok(authenticationFailure({ ...base, function: "list" }))
          return yield* listHeld(messageClass, text(auth["SenderID"]), pollUrl, at)
        }
        return ok(
          errorAnswer(
            base,
            [
              gateway(
                "1001",
                "fatal",
                `The Qualifier ${qualifier} and Function ${fn} are not a request this service takes.`
              )
            ],
            []
          )
        )
      }).pipe(Effect.orDie)

    return { handle } as const
  })

export type TransactionEngine = Effect.Effect.Success<ReturnType<typeof makeTransactionEngine>>
