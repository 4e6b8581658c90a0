import { DOMParser, type Element } from "@xmldom/xmldom"
import { C14nCanonicalization } from "xml-crypto"
import { createHash } from "node:crypto"

export const GOVTALK_ENVELOPE_NS = "http://www.govtalk.gov.uk/CM/envelope"

const childElements = (element: Element): ReadonlyArray<Element> =>
  Array.from(element.childNodes).filter((node): node is Element => node.nodeType === node.ELEMENT_NODE)

const find = (element: Element, localName: string): Element | undefined =>
  childElements(element).find((child) => child.localName === localName)

/**
 * HMRC's generic IRmark of a GovTalk message: the base64 SHA-1 of its `Body` element, the
 * `IRmark` element taken out, canonicalised by W3C Canonical XML 1.0 without comments with the
 * envelope's namespace declared on the `Body` (as it stands in the whole message).
 */
export const irMarkOf = (message: string): string => {
  const document = new DOMParser().parseFromString(message, "text/xml")
  const root = document.documentElement
  const body = root ? find(root as unknown as Element, "Body") : undefined
  if (!body) throw new Error("A GovTalk message without a Body has no IRmark")
  const header = find(body, "IRenvelope") && find(find(body, "IRenvelope")!, "IRheader")
  const mark = header && find(header, "IRmark")
  if (mark) header.removeChild(mark)
  body.setAttribute("xmlns", GOVTALK_ENVELOPE_NS)
  const c14n = new C14nCanonicalization()
  const canonical = c14n.process(body as unknown as Parameters<typeof c14n.process>[0], {})
  return createHash("sha1").update(canonical, "utf8").digest("base64")
}

/** The IRmark as the text the message carries until it is computed. */
export const IRMARK_PLACEHOLDER = "IRmark"

/** The message with its IRmark, computed over the message with the placeholder. */
export const withIrMark = (message: string): string =>
  message.replace(
    `<IRmark Type="generic">${IRMARK_PLACEHOLDER}</IRmark>`,
    `<IRmark Type="generic">${irMarkOf(message)}</IRmark>`
  )

/** The IRmark a message carries, if any. */
export const carriedIrMark = (message: string): string | null =>
  /<IRmark Type="generic">([^<]*)<\/IRmark>/.exec(message)?.[1] ?? null
