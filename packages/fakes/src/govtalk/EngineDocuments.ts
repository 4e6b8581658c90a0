import { base32, base64 } from "rfc4648"

/** HMRC's answers, as its Transaction Engine writes them (see the documents of hmrc/construction-industry-scheme-external-stub). */

const escape = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")

export interface EngineError {
  readonly raisedBy: string
  readonly number: string
  readonly type: "business" | "fatal"
  readonly text: string
  readonly location?: string
}

interface Details {
  readonly class: string
  readonly qualifier: "acknowledgement" | "response" | "error"
  readonly function: string
  readonly correlationId: string
  readonly transactionId?: string
  readonly endPoint?: { readonly url: string; readonly pollInterval: number }
  readonly at: Date
}

const timestamp = (at: Date) => at.toISOString().slice(0, 23)

const errorXml = (e: EngineError) => `
            <Error>
                <RaisedBy>${escape(e.raisedBy)}</RaisedBy>
                <Number>${e.number}</Number>
                <Type>${e.type}</Type>
                <Text>${escape(e.text)}</Text>
                <Location>${escape(e.location ?? "")}</Location>
            </Error>`

const message = (
  d: Details,
  govTalkErrors: ReadonlyArray<EngineError>,
  body: string
) => `<?xml version="1.0" encoding="UTF-8"?>
<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope">
    <EnvelopeVersion>2.0</EnvelopeVersion>
    <Header>
        <MessageDetails>
            <Class>${escape(d.class)}</Class>
            <Qualifier>${d.qualifier}</Qualifier>
            <Function>${d.function}</Function>
            <TransactionID>${escape(d.transactionId ?? "")}</TransactionID>
            <CorrelationID>${escape(d.correlationId)}</CorrelationID>
            ${d.endPoint ? `<ResponseEndPoint PollInterval="${d.endPoint.pollInterval}">${escape(d.endPoint.url)}</ResponseEndPoint>` : "<ResponseEndPoint/>"}
            <Transformation>XML</Transformation>
            <GatewayTimestamp>${timestamp(d.at)}</GatewayTimestamp>
        </MessageDetails>
    </Header>
    <GovTalkDetails>
        <Keys/>${govTalkErrors.length > 0 ? `\n        <GovTalkErrors>${govTalkErrors.map(errorXml).join("")}\n        </GovTalkErrors>` : ""}
    </GovTalkDetails>
    ${body === "" ? "<Body/>" : `<Body>\n${body}\n    </Body>`}
</GovTalkMessage>
`

export const acknowledgement = (d: Omit<Details, "qualifier">) =>
  message({ ...d, qualifier: "acknowledgement" }, [], "")

/**
 * An error answer: the envelope's error (ChRIS's summary, or the error itself when it is the
 * gateway's), and the department's errors in the body's ErrorResponse.
 */
export const errorAnswer = (
  d: Omit<Details, "qualifier">,
  govTalkErrors: ReadonlyArray<EngineError>,
  bodyErrors: ReadonlyArray<EngineError>
) =>
  message(
    { ...d, qualifier: "error" },
    govTalkErrors,
    bodyErrors.length === 0
      ? ""
      : `        <ErrorResponse SchemaVersion="2.0">
            <Application>
                <MessageCount>${bodyErrors.length}</MessageCount>
            </Application>${bodyErrors.map(errorXml).join("")}
        </ErrorResponse>`
  )

/**
 * A success answer: the IRmark receipt (as HMRC's: the digest it signed, base64, and its message
 * naming the IRmark in base32), HMRC's message, when it was accepted, and any response data.
 */
export const successAnswer = (d: Omit<Details, "qualifier">, irMark: string, what: string, responseData: string) =>
  message(
    { ...d, qualifier: "response" },
    [],
    `        <SuccessResponse xmlns="http://www.inlandrevenue.gov.uk/SuccessResponse">
            <IRmarkReceipt>
                <dsig:Signature xmlns:dsig="http://www.w3.org/2000/09/xmldsig#">
                    <dsig:SignedInfo>
                        <dsig:Reference>
                            <dsig:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/>
                            <dsig:DigestValue>${escape(irMark)}</dsig:DigestValue>
                        </dsig:Reference>
                    </dsig:SignedInfo>
                </dsig:Signature>
                <Message code="1">HMRC has received the ${escape(d.class)} document at ${timestamp(d.at)}. The associated IRmark was: ${base32.stringify(base64.parse(irMark))}. We advise you to keep this receipt in both electronic and hardcopy versions for your records.</Message>
            </IRmarkReceipt>
            <Message code="9004">The ${what} has been processed and passed full validation</Message>
            <AcceptedTime>${timestamp(d.at)}</AcceptedTime>${responseData === "" ? "" : `\n            <ResponseData>\n${responseData}\n            </ResponseData>`}
        </SuccessResponse>`
  )

export const deleteAnswer = (d: Omit<Details, "qualifier" | "function">) =>
  message({ ...d, qualifier: "response", function: "delete" }, [], "")

export interface StatusRecord {
  readonly correlationId: string
  readonly transactionId: string
  readonly receivedAt: Date
  readonly status: string
}

/** The answer to a `list` data request: a StatusReport with a record per message held. */
export const listAnswer = (
  d: Omit<Details, "qualifier" | "function">,
  senderId: string,
  records: ReadonlyArray<StatusRecord>
) =>
  message(
    { ...d, qualifier: "response", function: "list" },
    [],
    `        <StatusReport>
            <SenderID>${escape(senderId)}</SenderID>
            <StartTimeStamp>${timestamp(new Date(0))}</StartTimeStamp>
            <EndTimeStamp>${timestamp(d.at)}</EndTimeStamp>${records
              .map(
                (r) => `
            <StatusRecord>
                <TimeStamp>${timestamp(r.receivedAt)}</TimeStamp>
                <CorrelationID>${escape(r.correlationId)}</CorrelationID>
                <TransactionID>${escape(r.transactionId)}</TransactionID>
                <Status>${r.status}</Status>
            </StatusRecord>`
              )
              .join("")}
        </StatusReport>`
  )

export { escape as escapeXml }
