import { IRMARK_PLACEHOLDER } from "./IrMark.js"
import { type GovTalkKeys, keysXml } from "./GovTalkMessage.js"

/** The body schema an `IRenvelope` follows, as its Manifest names it. */
export interface IrSchema {
  readonly namespace: string
  readonly schemaVersion: string
  readonly topElementName: string
}

/** GovTalk's `Sender` of an IRheader: in what capacity the message is sent (`Agent`: an agent for its client). */
export type IrSender = "Company" | "Individual" | "Partnership" | "Trust" | "Agent"

/**
 * The `IRheader` of HMRC's core schema, in its order: the employer reference keys, the period
 * end, the currency, the Manifest of the body's schema, the IRmark (computed when the message is
 * built) and the sender.
 */
export const irHeader = (keys: GovTalkKeys, periodEnd: string, schema: IrSchema, sender: IrSender) => ({
  Keys: keysXml(keys),
  PeriodEnd: periodEnd,
  DefaultCurrency: "GBP",
  Manifest: {
    Contains: {
      Reference: {
        Namespace: schema.namespace,
        SchemaVersion: schema.schemaVersion,
        TopElementName: schema.topElementName
      }
    }
  },
  IRmark: { "@Type": "generic", "#text": IRMARK_PLACEHOLDER },
  Sender: sender
})
