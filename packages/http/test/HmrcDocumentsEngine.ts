import { SANDBOX_SOFTWARE } from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { govTalkTaxAuthority } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTaxAuthority"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { type HmrcDocument, hmrcDocument } from "./HmrcDocuments.js"

const POLL_INTERVAL_SECONDS = 1

const first = (xml: string, element: string) => new RegExp(`<${element}[^>]*>([^<]*)</${element}>`).exec(xml)?.[1] ?? ""
const all = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}[^>]*>([^<]*)</${element}>`, "g"))].map((m) => m[1] ?? "")

interface Held {
  readonly class: string
  readonly transactionId: string
  readonly readyAt: number
  /** The last poll endpoint named: each acknowledgement names the next, as HMRC's stub does. */
  readonly poll: number
  /** The final answer's document, and the receipt it carries (the IRmark sent) for an accepted return. */
  readonly answer: HmrcDocument
  readonly irmark: string
}

/**
 * A Transaction Engine that answers only with HMRC's own documents (fixtures/hmrc, HMRC's external
 * stub and the other sources its README names), by the sandbox's rules: a return whose deductions
 * total £999.99 gets HMRC's business error (as HMRC wrote it), any other HMRC's success with its
 * receipt naming the IRmark sent; a subcontractor named Error HMRC's departmental error, any other
 * HMRC's CISresponse. It takes submissions and data requests at `/submission`, polls and deletes
 * at `/poll/N`: as HMRC's stub, each acknowledgement (at the submission, and at a poll made before
 * the answer is ready) names the next endpoint, and any of them answers. It authenticates as HMRC may, after acknowledging: a message sent with the
 * password `refused` is acknowledged, its poll answers the authentication failure (1046), and a
 * data request sent with that password is refused at once. Its data request lists every message
 * it holds with a StatusRecord whose Status words are the engine's own (the adapter reads none).
 */
const engine = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
    const held = new Map<string, Held>()
    const server = createServer((request, response) => {
      let xml = ""
      request.on("data", (chunk: Buffer) => (xml += chunk.toString()))
      request.on("end", () => {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        const now = Date.now()
        const messageClass = first(xml, "Class")
        const qualifier = first(xml, "Qualifier")
        const fn = first(xml, "Function")
        const correlationId = first(xml, "CorrelationID")
        const gatewayTimestamp = new Date(now).toISOString().slice(0, 23)
        const kind = messageClass === "IR-CIS-CIS300MR" ? "return" : "verification"
        const answer = (body: string) => response.writeHead(200, { "content-type": "text/xml" }).end(body)
        const fill = (name: HmrcDocument, values: Record<string, string> = {}) =>
          hmrcDocument(
            name,
            { class: messageClass, function: fn, gatewayTimestamp, ...values },
            { pollIntervalSeconds: POLL_INTERVAL_SECONDS }
          )
        const acknowledge = (id: string, poll: number) =>
          answer(fill(`${kind}-acknowledgement`, { correlationId: id, pollUrl: `${base}/poll/${poll}` }))
        const refused = first(xml, "Value") === "refused"
        const atPoll = /^\/poll\/(\d+)$/.exec(request.url ?? "")
        if (request.url === "/submission" && qualifier === "request" && fn === "submit") {
          const id = randomUUID().replaceAll("-", "").toUpperCase()
          const final: HmrcDocument = refused
            ? "authentication-failure"
            : kind === "return"
              ? Math.round(all(xml, "TotalDeducted").reduce((sum, v) => sum + Number(v), 0) * 100) === 99_999
                ? "return-business-error"
                : "return-accepted"
              : all(xml, "Sur").includes("Error") || all(xml, "TradingName").includes("Error")
                ? "verification-departmental-error"
                : "verification-matched"
          held.set(id, {
            class: messageClass,
            transactionId: first(xml, "TransactionID"),
            readyAt: now + POLL_INTERVAL_SECONDS * 1000,
            poll: 1,
            answer: final,
            irmark: first(xml, "IRmark")
          })
          return acknowledge(id, 1)
        }
        if (request.url === "/submission" && qualifier === "request" && fn === "list") {
          if (refused) return answer(fill("authentication-failure"))
          const records = [...held]
            .filter(([, h]) => h.class === messageClass)
            .map(([id, h]) =>
              fill("list-record", {
                correlationId: id,
                transactionId: h.transactionId,
                status: now < h.readyAt ? "held, not answered yet" : "held, answered"
              })
            )
            .join("\n")
          return answer(fill("list-response", { pollUrl: `${base}/poll/1`, senderId: first(xml, "SenderID"), records }))
        }
        const message = held.get(correlationId)
        if (atPoll === null || message === undefined || message.class !== messageClass)
          return answer(fill("unknown-correlation", { correlationId }))
        if (qualifier === "poll") {
          if (now < message.readyAt) {
            held.set(correlationId, { ...message, poll: message.poll + 1 })
            return acknowledge(correlationId, message.poll + 1)
          }
          return answer(
            hmrcDocument(
              message.answer,
              { correlationId, digestValue: message.irmark, gatewayTimestamp },
              { receipt: { correlationId, irmark: message.irmark } }
            )
          )
        }
        held.delete(correlationId)
        return answer(fill(`${kind}-delete-response`, { correlationId }))
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(
        Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/submission`,
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

/** The GovTalk adapter over a Transaction Engine that answers with HMRC's own documents. */
export const GovTalkOverHmrcDocuments = Layer.unwrapScoped(
  Effect.map(engine, ({ url }) => govTalkTaxAuthority({ url, software: SANDBOX_SOFTWARE }))
)
