import { readFileSync } from "node:fs"

export type Json = Record<string, unknown>

/** The official GoCardless client repositories whose published fixtures are kept in fixtures/gocardless. */
export type GoCardlessClient =
  "gocardless-pro-python" | "gocardless-nodejs" | "gocardless-pro-java" | "gocardless-pro-go"

/** A file as GoCardless's official client publishes it (fixtures/gocardless/<client>/<file>; see the README there). */
export const publishedText = (client: GoCardlessClient, file: string): string =>
  readFileSync(new URL(`./fixtures/gocardless/${client}/${file}`, import.meta.url), "utf8")

export const published = (client: GoCardlessClient, file: string): Json =>
  JSON.parse(publishedText(client, file)) as Json

/**
 * The response body GoCardless's Python client publishes for one endpoint of a resource
 * (`tests/fixtures/<resource>.json`, keyed by endpoint: `create`, `get`, `fulfil`, `retry`, ...).
 */
export const exampleOf = (resource: string, endpoint: string): Json => {
  const fixture = published("gocardless-pro-python", `${resource}.json`)[endpoint] as
    { readonly body: Json } | undefined
  if (fixture === undefined) throw new Error(`GoCardless publishes no ${resource} ${endpoint} example`)
  return fixture.body
}

/**
 * The rate-limit headers GoCardless sent in a recorded exchange of its Java client's tape
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`), by their name in lower case.
 */
export const recordedRateLimitHeaders = (tape: string): Readonly<Record<string, string>> =>
  Object.fromEntries(
    [...publishedText("gocardless-pro-java", tape).matchAll(/^\s+(RateLimit-[A-Za-z]+): '?([^'\n]+)'?$/gm)]
      .slice(0, 3)
      .map(([, name, value]) => [name!.toLowerCase(), value!])
  )
