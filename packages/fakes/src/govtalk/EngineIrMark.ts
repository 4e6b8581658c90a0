import { DOMParser, type Element } from "@xmldom/xmldom"
import { createHash } from "node:crypto"
import { C14nCanonicalization } from "xml-crypto"

const ENVELOPE_NS = "http://www.govtalk.gov.uk/CM/envelope"

const child = (element: Element | undefined, localName: string): Element | undefined =>
  element &&
  Array.from(element.childNodes).find(
    (node): node is Element => node.nodeType === node.ELEMENT_NODE && (node as Element).localName === localName
  )

/**
 * The IRmark the Transaction Engine expects of a submission, as HMRC computes it: the `Body`
 * with its `IRenvelope/IRheader/IRmark` taken out and the envelope's namespace declared on it,
 * canonicalised (C14N 1.0, no comments), SHA-1, base64. Null when the message has no body.
 */
export const expectedIrMark = (message: string): string | null => {
  const root = new DOMParser().parseFromString(message, "text/xml").documentElement as unknown as Element | null
  const body = child(root ?? undefined, "Body")
  if (!body) return null
  const header = child(child(body, "IRenvelope"), "IRheader")
  const mark = child(header, "IRmark")
  if (header && mark) header.removeChild(mark)
  body.setAttribute("xmlns", ENVELOPE_NS)
  const c14n = new C14nCanonicalization()
  return createHash("sha1")
    .update(c14n.process(body as unknown as Parameters<typeof c14n.process>[0], {}), "utf8")
    .digest("base64")
}
