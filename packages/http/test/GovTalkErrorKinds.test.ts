import { sandboxCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { SANDBOX_SOFTWARE } from "@cisbook/adapters/taxauthority/govtalk/GovTalkConfig"
import { govTalkTaxAuthority } from "@cisbook/adapters/taxauthority/govtalk/GovTalkTaxAuthority"
import { transactionIdOf } from "@cisbook/adapters/taxauthority/cis300/Cis300Return"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import type { ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

const scheme = Schema.decodeSync(CisScheme)({
  employerReference: "123/AB456",
  accountsOfficeReference: "123PW12345678"
})

const submission: ReturnSubmission = {
  id: MonthlyReturnId.make(randomUUID()),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme }),
  nilReturn: false,
  inactive: false,
  lines: [
    new ReturnLine({
      contactId: ContactId.make(randomUUID()),
      contactCode: "BRICKS",
      name: "Bricks Ltd",
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 600_000,
      materials: 100_000,
      deducted: 100_000,
      cisDetails: Schema.decodeSync(CisDetails)({ type: "Company", tradingName: "Bricks Ltd", utr: "2234567890" })
    })
  ]
}

/** An error answer shaped as HMRC's: the envelope's errors, and the department's in the body's ErrorResponse. */
const errorDocument = (
  govTalk: ReadonlyArray<readonly [string, string, string]>,
  body: ReadonlyArray<readonly [string, string, string]> = []
) => {
  const errors = (list: typeof govTalk) =>
    list
      .map(
        ([number, type, text]) =>
          `<Error><RaisedBy>Department</RaisedBy><Number>${number}</Number><Type>${type}</Type><Text>${text}</Text><Location/></Error>`
      )
      .join("")
  return `<?xml version="1.0"?>
<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion>
<Header><MessageDetails><Class>IR-CIS-CIS300MR</Class><Qualifier>error</Qualifier><Function>submit</Function><TransactionID/><CorrelationID>C0FFEE</CorrelationID><ResponseEndPoint PollInterval="1">x</ResponseEndPoint><Transformation>XML</Transformation></MessageDetails></Header>
<GovTalkDetails><Keys/><GovTalkErrors>${errors(govTalk)}</GovTalkErrors></GovTalkDetails>
<Body>${body.length === 0 ? "" : `<ErrorResponse SchemaVersion="2.0"><Application><MessageCount>${body.length}</MessageCount></Application>${errors(body)}</ErrorResponse>`}</Body></GovTalkMessage>`
}

const acknowledgementTo = (pollUrl: string) => `<?xml version="1.0"?>
<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion>
<Header><MessageDetails><Class>IR-CIS-CIS300MR</Class><Qualifier>acknowledgement</Qualifier><Function>submit</Function><CorrelationID>C0FFEE</CorrelationID><ResponseEndPoint PollInterval="1">${pollUrl}</ResponseEndPoint><Transformation>XML</Transformation></MessageDetails></Header>
<Body/></GovTalkMessage>`

const deleted = `<?xml version="1.0"?>
<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion>
<Header><MessageDetails><Class>IR-CIS-CIS300MR</Class><Qualifier>response</Qualifier><Function>delete</Function><CorrelationID>C0FFEE</CorrelationID></MessageDetails></Header><Body/></GovTalkMessage>`

/**
 * HMRC's list of the return's submissions: the failed one, and with `held` a later one HMRC took;
 * with `error`, only the one polled, held as its error answer.
 */
const listed = (kind: "failed" | "held" | "error", pollUrl: string) => {
  const held = kind === "held"
  const record = (correlationId: string, status: string) =>
    `<StatusRecord><TimeStamp>01/07/2026 10:00:00</TimeStamp><CorrelationID>${correlationId}</CorrelationID><TransactionID>${transactionIdOf(submission.id)}</TransactionID><Status>${status}</Status></StatusRecord>`
  return `<?xml version="1.0"?>
<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion>
<Header><MessageDetails><Class>IR-CIS-CIS300MR</Class><Qualifier>response</Qualifier><Function>list</Function><CorrelationID></CorrelationID><ResponseEndPoint PollInterval="1">${pollUrl}</ResponseEndPoint></MessageDetails></Header>
<GovTalkDetails><Keys/></GovTalkDetails><Body><StatusReport><SenderID>sender</SenderID>${record("C0FFEE", "SUBMISSION_ERROR")}${held ? record("BEEF", "SUBMISSION_ACKNOWLEDGEMENT") : ""}</StatusReport></Body></GovTalkMessage>`
}

const answers: Record<string, string> = {
  fatal: errorDocument([["1020", "fatal", "Forced fatal error"]]),
  business: errorDocument(
    [["3001", "business", "Your submission failed due to business validation errors."]],
    [["5005", "business", "Keys in the GovTalkDetails do not match those in the IRheader."]]
  ),
  "1000": errorDocument([["1000", "business", "System failure. The submission of this document has failed."]]),
  "2005": errorDocument([["2005", "business", "The Transaction Engine has not received an acknowledgement in time."]]),
  "3000": errorDocument([
    ["3000", "fatal", "The processing of your document submission failed due to a departmental error."]
  ])
}

/**
 * A GovTalk endpoint of the test's own, for the answers the local engine's rules never give:
 * `/{kind}/submission` answers the error of that kind; `/{kind}/{scenario}/submission` acknowledges,
 * and the poll it names (`/{kind}/{scenario}/poll`) answers the error; its data request lists the
 * return as the scenario says (`held`: a later submission held; `held-error`: the polled one held
 * as its error; else only the failed one). It keeps every message's path, Qualifier and Function.
 */
const testEndpoint = Effect.acquireRelease(
  Effect.async<{ base: string; received: Array<string>; close: () => void }>((resume) => {
    const received: Array<string> = []
    const server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        const qualifier = /<Qualifier>([^<]*)</.exec(body)?.[1]
        const fn = /<Function>([^<]*)</.exec(body)?.[1]
        received.push(`${request.url} ${qualifier} ${fn}`)
        const [, kind = "", ...rest] = (request.url ?? "").split("/")
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        if (kind === "500") {
          response.writeHead(503).end("Service Unavailable")
          return
        }
        const answer =
          fn === "delete"
            ? deleted
            : fn === "list"
              ? listed(
                  rest[0] === "held" ? "held" : rest[0] === "held-error" ? "error" : "failed",
                  `${base}/${kind}/${rest[0]}/poll`
                )
              : rest[0] !== undefined && rest[0] !== "submission" && qualifier === "request"
                ? acknowledgementTo(`${base}/${kind}/${rest[0]}/poll`)
                : answers[kind]!
        response
          .writeHead(200, { "content-type": "text/xml" })
          .end(answer.replace('PollInterval="1">x<', `PollInterval="1">${base}/${kind}/poll<`))
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(
        Effect.succeed({
          base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          received,
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

const adapterAt = (url: string) =>
  Effect.provide(TaxAuthority, govTalkTaxAuthority({ url, software: SANDBOX_SOFTWARE }))

const verification = {
  contractor: { utr: "8456789123", scheme },
  subcontractor: Schema.decodeSync(CisDetails)({ type: "Company", tradingName: "Bricks Ltd", utr: "2234567890" })
}

describe("HMRC's error kinds", () => {
  it.scopedLive(
    "fatal and business errors refuse the return with every error's text; a polled answer is deleted when asked",
    () =>
      Effect.gen(function* () {
        const endpoint = yield* testEndpoint
        const fatal = yield* (yield* adapterAt(`${endpoint.base}/fatal/submission`)).sendReturn(
          submission,
          sandboxCredentials
        )
        expect(fatal).toEqual({ _tag: "Rejected", reason: "Forced fatal error (1020)" })
        // The refused submission's answer is deleted where the answer named: never at the submission URL.
        expect(endpoint.received).toEqual(["/fatal/submission request submit", "/fatal/poll request delete"])

        const hmrc = yield* adapterAt(`${endpoint.base}/business/held-error/submission`)
        const sent = yield* hmrc.sendReturn(submission, sandboxCredentials)
        assert(sent._tag === "Acknowledged")
        expect(sent.acknowledgement).toEqual({
          correlationId: "C0FFEE",
          endpoint: `${endpoint.base}/business/held-error/poll`,
          pollIntervalSeconds: 1
        })
        const polled = yield* hmrc.pollReturn(sent.acknowledgement, submission, sandboxCredentials)
        // An error at a poll is a refusal only when HMRC's data request holds it as the answer.
        expect(polled).toEqual({
          _tag: "Rejected",
          reason:
            "Your submission failed due to business validation errors. (3001) Keys in the GovTalkDetails do not match those in the IRheader. (5005)"
        })
        expect(endpoint.received.slice(2)).toEqual([
          "/business/held-error/submission request submit",
          "/business/held-error/poll poll submit",
          "/business/held-error/submission request list"
        ])
        yield* hmrc.deleteReturnAnswer(sent.acknowledgement)
        expect(endpoint.received.slice(5)).toEqual(["/business/held-error/poll request delete"])
      })
  )

  for (const kind of ["1000", "2005", "3000"]) {
    it.scopedLive(`error ${kind} leaves the return and the verification to be sent again later`, () =>
      Effect.gen(function* () {
        const endpoint = yield* testEndpoint
        const hmrc = yield* adapterAt(`${endpoint.base}/${kind}/submission`)
        const sent = yield* Effect.exit(hmrc.sendReturn(submission, sandboxCredentials))
        expect(sent).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
        const verified = yield* Effect.exit(hmrc.sendVerification("REQUEST-1", verification, sandboxCredentials))
        expect(verified).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
        // As the answer to a poll: HMRC failed the submission, so the return is submitted afresh,
        // under a correlation id for the filer to record (the failed one is left for the filer to
        // delete once it recorded the new one).
        const later = yield* adapterAt(`${endpoint.base}/${kind}/later/submission`)
        const first = yield* later.sendReturn(submission, sandboxCredentials)
        assert(first._tag === "Acknowledged")
        const before = endpoint.received.length
        const polled = yield* later.pollReturn(first.acknowledgement, submission, sandboxCredentials)
        expect(polled).toMatchObject({ _tag: "Resent", sent: { acknowledgement: { correlationId: "C0FFEE" } } })
        expect(endpoint.received.slice(before)).toEqual([
          `/${kind}/later/poll poll submit`,
          `/${kind}/later/submission request list`,
          `/${kind}/later/submission request submit`
        ])

        // A filer that died after sending afresh, before recording it: HMRC holds the later
        // submission, which is taken rather than sent a third time.
        const held = yield* adapterAt(`${endpoint.base}/${kind}/held/submission`)
        const heldSent = yield* held.sendReturn(submission, sandboxCredentials)
        assert(heldSent._tag === "Acknowledged")
        const then = endpoint.received.length
        expect(yield* held.pollReturn(heldSent.acknowledgement, submission, sandboxCredentials)).toMatchObject({
          _tag: "Resent",
          sent: { acknowledgement: { correlationId: "BEEF", endpoint: `${endpoint.base}/${kind}/held/poll` } },
          retryAfterMs: 0
        })
        expect(endpoint.received.slice(then)).toEqual([
          `/${kind}/held/poll poll submit`,
          `/${kind}/held/submission request list`
        ])
      })
    )
  }

  it.scopedLive("a 5xx and a connection refused are the tax authority being unavailable", () =>
    Effect.gen(function* () {
      const endpoint = yield* testEndpoint
      const fiveHundred = yield* Effect.exit(
        (yield* adapterAt(`${endpoint.base}/500/submission`)).sendReturn(submission, sandboxCredentials)
      )
      expect(fiveHundred).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
      endpoint.close()
      yield* Effect.sleep("50 millis")
      const refused = yield* Effect.exit(
        (yield* adapterAt(`${endpoint.base}/fatal/submission`)).findSentReturn(submission, sandboxCredentials)
      )
      expect(refused).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "TaxAuthorityUnavailable" } } })
    })
  )

  it.scopedLive("a verification refused by a fatal error carries the error's text", () =>
    Effect.gen(function* () {
      const endpoint = yield* testEndpoint
      expect(
        yield* (yield* adapterAt(`${endpoint.base}/fatal/submission`)).sendVerification(
          "R",
          verification,
          sandboxCredentials
        )
      ).toEqual({
        _tag: "Refused",
        message: "Forced fatal error (1020)"
      })
    })
  )
})
