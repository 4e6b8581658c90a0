import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { clientAddress, TrustedProxiesConfig } from "../src/middleware/ClientAddress.js"
import { refused, withEnv } from "./ConfigEnv.js"

const peer = Option.some("10.0.0.2")

describe("the client address", () => {
  it("is the connection's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(peer, "203.0.113.7", 0)).toBe("10.0.0.2")
    expect(clientAddress(Option.none(), undefined, 0)).toBe("unknown")
  })

  it("behind trusted proxies, is the address the outermost one saw; what the client wrote itself counts for nothing", () => {
    expect(clientAddress(peer, "203.0.113.7", 1)).toBe("203.0.113.7")
    expect(clientAddress(peer, "198.51.100.1, 203.0.113.7", 1)).toBe("203.0.113.7")
    expect(clientAddress(peer, "198.51.100.1, 203.0.113.7, 10.0.0.9", 2)).toBe("203.0.113.7")
    // Fewer entries than proxies: the leftmost there is.
    expect(clientAddress(peer, "203.0.113.7", 3)).toBe("203.0.113.7")
    expect(clientAddress(peer, undefined, 1)).toBe("10.0.0.2")
  })

  it.effect("TRUSTED_PROXIES is 0 by default, a whole number up to 10", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(TrustedProxiesConfig)).toBe(0)
      expect(yield* withEnv({ TRUSTED_PROXIES: "2" })(TrustedProxiesConfig)).toBe(2)
      expect(yield* refused({ TRUSTED_PROXIES: "-1" }, TrustedProxiesConfig)).toContain(
        "Must be a whole number from 0 to 10"
      )
    })
  )
})
