import { Redacted } from "effect"
import { XMLBuilder } from "fast-xml-parser"
import { GOVTALK_ENVELOPE_NS, withIrMark } from "./IrMark.js"

/** GovTalk's message classes of the CIS: a monthly return, and a verification of subcontractors. */
export type GovTalkClass = "IR-CIS-CIS300MR" | "IR-CIS-VERIFY"

/** The software that sends: its vendor id, product and version, as registered with HMRC. */
export interface GovTalkSoftware {
  /** GatewayTest 1: HMRC's test service, which validates but files nothing. */
  readonly gatewayTest: boolean
  /** The 4-character vendor id HMRC gave the software (ChannelRouting/Channel/URI). */
  readonly vendorId: string
  readonly product: string
  readonly version: string
}

/** Who sends: the software, with the tenant's Government Gateway credentials. */
export interface GovTalkSender extends GovTalkSoftware {
  readonly senderId: string
  readonly password: Redacted.Redacted<string>
}

/** The employer reference that keys a CIS message: `123/AB456` as tax office number and reference. */
export interface GovTalkKeys {
  readonly taxOfficeNumber: string
  readonly taxOfficeReference: string
}

export type GovTalkRequest =
  | {
      readonly function: "submit"
      readonly class: GovTalkClass
      readonly transactionId: string
      readonly keys: GovTalkKeys
      /** The `IRenvelope` element's content, as fast-xml-parser's builder takes it. */
      readonly irEnvelope: Record<string, unknown>
    }
  | { readonly function: "poll" | "delete"; readonly class: GovTalkClass; readonly correlationId: string }
  | { readonly function: "list"; readonly class: GovTalkClass }

export const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  format: true,
  indentBy: "  ",
  suppressEmptyNode: false
})

export const keysXml = (keys: GovTalkKeys) => ({
  Key: [
    { "@Type": "TaxOfficeNumber", "#text": keys.taxOfficeNumber },
    { "@Type": "TaxOfficeReference", "#text": keys.taxOfficeReference }
  ]
})

/**
 * A GovTalk message (envelope 2.0) to HMRC's Transaction Engine. A submission (`Qualifier`
 * `request`, `Function` `submit`) carries the sender's credentials, the employer reference keys,
 * the software's channel and the `IRenvelope` body with its IRmark; a poll (`Qualifier` `poll`,
 * `Function` `submit`) or a delete (`Qualifier` `request`, `Function` `delete`) names the
 * correlation id and has an empty body and empty SenderDetails, as HMRC's own do; a `list` data
 * request asks, with the credentials, what HMRC holds of the class.
 */
export const govTalkMessage = (request: GovTalkRequest, sender: GovTalkSoftware | GovTalkSender): string => {
  const submit = request.function === "submit" ? request : null
  const message = builder.build({
    "?xml": { "@version": "1.0", "@encoding": "UTF-8" },
    GovTalkMessage: {
      "@xmlns": GOVTALK_ENVELOPE_NS,
      EnvelopeVersion: "2.0",
      Header: {
        MessageDetails: {
          Class: request.class,
          Qualifier: request.function === "poll" ? "poll" : "request",
          Function: request.function === "poll" ? "submit" : request.function,
          TransactionID: submit?.transactionId ?? "",
          CorrelationID: "correlationId" in request ? request.correlationId : "",
          Transformation: "XML",
          GatewayTest: sender.gatewayTest ? "1" : "0"
        },
        SenderDetails:
          request.function === "poll" || request.function === "delete" || !("senderId" in sender)
            ? ""
            : {
                IDAuthentication: {
                  SenderID: sender.senderId,
                  Authentication: { Method: "clear", Role: "principal", Value: Redacted.value(sender.password) }
                }
              }
      },
      GovTalkDetails: {
        Keys: submit ? keysXml(submit.keys) : "",
        TargetDetails: { Organisation: "IR" },
        ChannelRouting: { Channel: { URI: sender.vendorId, Product: sender.product, Version: sender.version } }
      },
      Body: submit ? { IRenvelope: submit.irEnvelope } : ""
    }
  }) as string
  return submit ? withIrMark(message) : message
}
