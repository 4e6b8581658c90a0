import { lookup } from "node:dns/promises"
import { isIP } from "node:net"
import { DestinationRefused } from "@cisbook/core/webhooks/DestinationGuard"
import { schemeProblem } from "@cisbook/core/webhooks/WebhookUrl"
import { Data, Duration, Effect } from "effect"
import ipaddr from "ipaddr.js"

/** The host did not resolve (or not in time): nothing says where it leads. */
export class Unresolved extends Data.TaggedError("Unresolved")<{ readonly reason: string }> {}

export interface Destination {
  readonly address: string
  readonly family: 4 | 6
}

const LOOKUP_TIMEOUT = Duration.seconds(5)

const names: Readonly<Record<string, string>> = {
  loopback: "a loopback",
  private: "a private (RFC 1918)",
  linkLocal: "a link-local",
  carrierGradeNat: "a carrier-grade NAT",
  uniqueLocal: "an IPv6 unique local",
  unspecified: "an unspecified",
  multicast: "a multicast",
  broadcast: "a broadcast"
}

/**
 * Why the service may not connect to an address, or undefined for a public unicast one.
 * IPv4 inside IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
 */
export const addressRefusal = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`
  const range = ipaddr.process(address).range()
  if (range === "unicast") return undefined
  return `${address} is ${names[range] ?? `a reserved (${range})`} address`
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1")

const refusedBecause = (host: string, reason: string) =>
  new DestinationRefused({
    reason: `${host} is not a public destination: ${reason}. Webhooks go to public addresses only (set WEBHOOK_ALLOW_PRIVATE_TARGETS=true for development).`
  })

/** Every address the host resolves to now (an IP literal is its own). */
const resolve = (host: string): Effect.Effect<ReadonlyArray<Destination>, Unresolved> =>
  isIP(host) !== 0
    ? Effect.succeed([{ address: host, family: isIP(host) as 4 | 6 }])
    : Effect.tryPromise({
        try: () => lookup(host, { all: true, verbatim: true }),
        catch: (error) =>
          new Unresolved({ reason: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? error})` })
      }).pipe(
        Effect.timeoutFail({
          duration: LOOKUP_TIMEOUT,
          onTimeout: () => new Unresolved({ reason: `${host} did not resolve within 5 s` })
        }),
        Effect.map((found) => found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }) as const))
      )

/**
 * Where a webhook to `url` would go: its host resolved once, every address checked, and the
 * first one returned to connect to, so that a second resolution (DNS rebinding) cannot lead
 * elsewhere. Private destinations are refused unless `allowPrivateTargets`.
 */
export const destinationOf = (
  url: URL,
  allowPrivateTargets: boolean
): Effect.Effect<Destination, DestinationRefused | Unresolved> =>
  Effect.gen(function* () {
    const scheme = schemeProblem(url, allowPrivateTargets)
    if (scheme !== undefined) return yield* new DestinationRefused({ reason: scheme })
    const host = hostOf(url)
    const addresses = yield* resolve(host)
    if (!allowPrivateTargets) {
      for (const { address } of addresses) {
        const refusal = addressRefusal(address)
        if (refusal !== undefined) return yield* refusedBecause(host, refusal)
      }
    }
    const [first] = addresses
    return first ?? (yield* new Unresolved({ reason: `${host} resolves to no address` }))
  })
