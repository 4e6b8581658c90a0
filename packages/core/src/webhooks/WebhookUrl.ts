import { Schema } from "effect"

export const MAX_WEBHOOK_URL_LENGTH = 2048

/** What makes a string unusable as a webhook address, whatever the destination rules allow. */
const shapeProblem = (text: string): string | undefined => {
  if (!URL.canParse(text)) return "Must be an absolute URL such as https://example.com/webhooks"
  const url = new URL(text)
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Must be an https URL"
  if (url.username !== "" || url.password !== "") return "Must not carry a user name or password"
  return undefined
}

/** A webhook URL as it comes over the wire: an absolute http(s) URL without credentials. */
export const WebhookUrl = Schema.Trim.pipe(
  Schema.maxLength(MAX_WEBHOOK_URL_LENGTH, {
    message: () => `A URL has at most ${MAX_WEBHOOK_URL_LENGTH} characters`
  }),
  Schema.filter((text) => shapeProblem(text) ?? true),
  Schema.annotations({ title: "WebhookUrl", format: "uri", examples: ["https://hooks.example.com/cisbook"] })
)

/**
 * Whether a URL's scheme is allowed: https always, plain http only where private targets are
 * (development and tests), since a webhook's payload and signature must not cross the
 * internet in the clear.
 */
export const schemeProblem = (url: URL, allowPrivateTargets: boolean): string | undefined =>
  url.protocol === "https:" || (url.protocol === "http:" && allowPrivateTargets)
    ? undefined
    : "Must be an https URL (plain http is allowed only when WEBHOOK_ALLOW_PRIVATE_TARGETS=true)"
