import { SANDBOX_SOFTWARE } from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { govTalkTaxAuthority } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTaxAuthority"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

const POLL_INTERVAL_SECONDS = 1

const documents = new Map<string, string>()
const document = (name: string) => {
  const known = documents.get(name)
  if (known !== undefined) return known
  const read = readFileSync(new URL(`fixtures/hmrc/${name}.xml`, import.meta.url), "utf8")
  documents.set(name, read)
  return read
}

/** The document with its `{{name}}`s filled in (XML-escaped). */
const fill = (name: string, values: Record<string, string>) =>
  document(name).replace(/\{\{(\w+)\}\}/g, (_, key: string) =>
    key === "records"
      ? (values[key] ?? "")
      : (values[key] ?? "").replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
  )

const first = (xml: string, element: string) => new RegExp(`<${element}[^>]*>([^<]*)</${element}>`).exec(xml)?.[1] ?? ""
const all = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}[^>]*>([^<]*)</${element}>`, "g"))].map((m) => m[1] ?? "")

interface Held {
  readonly class: string
  readonly transactionId: string
  readonly readyAt: number
  /** The final answer's document and its values. */
  readonly answer: { readonly name: string; readonly values: Record<string, string> }
}

/**
 * A Transaction Engine that answers only with HMRC's own documents (fixtures/hmrc, written after
 * HMRC's external stub), by the sandbox's rules: a return whose deductions total £999.99 gets
 * HMRC's business error, any other HMRC's success with its IRmark receipt; a subcontractor named
 * Error HMRC's departmental error, any other HMRC's CISresponse. It takes submissions and data
 * requests at `/submission`, polls and deletes at `/poll` (the ResponseEndPoint it names), so the
 * adapter is tried against what HMRC writes and not only against the local engine. It
 * authenticates as HMRC may, after acknowledging: a message sent with the password `refused` is
 * acknowledged, its poll answers HMRC's authentication failure (1046), and a data request sent
 * with that password is refused at once.
 */
const engine = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
    const held = new Map<string, Held>()
    const server = createServer((request, response) => {
      let xml = ""
      request.on("data", (chunk: Buffer) => (xml += chunk.toString()))
      request.on("end", () => {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        const pollUrl = `${base}/poll`
        const now = Date.now()
        const messageClass = first(xml, "Class")
        const qualifier = first(xml, "Qualifier")
        const fn = first(xml, "Function")
        const correlationId = first(xml, "CorrelationID")
        const common = {
          class: messageClass,
          function: fn,
          correlationId,
          pollUrl,
          pollInterval: String(POLL_INTERVAL_SECONDS),
          timestamp: new Date(now).toISOString().slice(0, 23)
        }
        const answer = (body: string) => response.writeHead(200, { "content-type": "text/xml" }).end(body)
        const atPoll = request.url === "/poll"
        const refused = first(xml, "Value") === "refused"
        if (qualifier === "request" && fn === "submit" && !atPoll) {
          const id = randomUUID().replaceAll("-", "").toUpperCase()
          const irmark = first(xml, "IRmark")
          const values = {
            ...common,
            correlationId: id,
            irmark,
            keys: all(xml, "Key").join("/"),
            time: common.timestamp
          }
          const final = refused
            ? { name: "authentication-failure", values: { ...common, correlationId: id } }
            : messageClass === "IR-CIS-CIS300MR"
              ? Math.round(all(xml, "TotalDeducted").reduce((sum, v) => sum + Number(v), 0) * 100) === 99_999
                ? { name: "return-business-error", values }
                : { name: "return-accepted", values }
              : all(xml, "Sur").includes("Error") || all(xml, "TradingName").includes("Error")
                ? { name: "verification-departmental-error", values }
                : {
                    name: "verification-matched",
                    values: {
                      ...values,
                      contractorUtr: first(xml, "UTR"),
                      aoRef: first(xml, "AOref"),
                      fore: first(xml, "Fore"),
                      sur: first(xml, "Sur"),
                      utr: all(xml, "UTR")[1] ?? ""
                    }
                  }
          held.set(id, {
            class: messageClass,
            transactionId: first(xml, "TransactionID"),
            readyAt: now + POLL_INTERVAL_SECONDS * 1000,
            answer: final
          })
          return answer(fill("acknowledgement", { ...common, correlationId: id }))
        }
        if (qualifier === "request" && fn === "list" && !atPoll) {
          if (refused) return answer(fill("authentication-failure", common))
          const records = [...held]
            .filter(([, h]) => h.class === messageClass)
            .map(([id, h]) =>
              fill("list-record", {
                ...common,
                correlationId: id,
                transactionId: h.transactionId,
                status:
                  now < h.readyAt
                    ? "SUBMISSION_ACKNOWLEDGEMENT"
                    : h.answer.name.includes("error") || h.answer.name.includes("failure")
                      ? "SUBMISSION_ERROR"
                      : "SUBMISSION_RESPONSE"
              })
            )
            .join("\n")
          return answer(fill("list-response", { ...common, senderId: first(xml, "SenderID"), records }))
        }
        const message = held.get(correlationId)
        if (!atPoll || message === undefined || message.class !== messageClass)
          return answer(fill("unknown-correlation", common))
        if (qualifier === "poll")
          return answer(
            now < message.readyAt
              ? fill("acknowledgement", common)
              : fill(message.answer.name, { ...message.answer.values, pollUrl })
          )
        held.delete(correlationId)
        return answer(fill("delete-response", common))
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
