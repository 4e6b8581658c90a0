import { Config, Option } from "effect"

/** TRUSTED_PROXIES: how many proxies (load balancers) in front of the server append to X-Forwarded-For; 0 by default. */
export const TrustedProxiesConfig = Config.withDefault(
  Config.integer("TRUSTED_PROXIES").pipe(
    Config.validate({ message: "Must be a whole number from 0 to 10", validation: (n) => n >= 0 && n <= 10 })
  ),
  0
)

/**
 * The client's address: the connection's peer or, behind `trustedProxies` proxies that each
 * append to X-Forwarded-For the address they were connected from, the address the outermost of
 * them saw. Entries further left were written by the client itself and prove nothing.
 */
export const clientAddress = (
  peer: Option.Option<string>,
  forwardedFor: string | undefined,
  trustedProxies: number
): string => {
  const connected = Option.getOrElse(peer, () => "unknown")
  if (trustedProxies === 0) return connected
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  const chain = [...forwarded, connected]
  return chain[Math.max(0, chain.length - 1 - trustedProxies)] ?? connected
}
