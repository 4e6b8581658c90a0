import { destinationGuard } from "@cisbook/adapters/webhooks/DestinationGuardLive"
import { addressRefusal, destinationOf } from "@cisbook/adapters/webhooks/Destinations"
import { DestinationGuard } from "@cisbook/core/webhooks/DestinationGuard"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"

describe("addressRefusal", () => {
  it("lets public unicast addresses through", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"]) {
      expect(addressRefusal(address)).toBeUndefined()
    }
  })

  it("refuses loopback, private, link-local (metadata), CGNAT, IPv6-local and mapped addresses, saying which", () => {
    expect(addressRefusal("127.0.0.1")).toBe("127.0.0.1 is a loopback address")
    expect(addressRefusal("10.1.2.3")).toBe("10.1.2.3 is a private (RFC 1918) address")
    expect(addressRefusal("172.16.0.9")).toBe("172.16.0.9 is a private (RFC 1918) address")
    expect(addressRefusal("192.168.1.1")).toBe("192.168.1.1 is a private (RFC 1918) address")
    expect(addressRefusal("169.254.169.254")).toBe("169.254.169.254 is a link-local address")
    expect(addressRefusal("100.64.0.1")).toBe("100.64.0.1 is a carrier-grade NAT address")
    expect(addressRefusal("0.0.0.0")).toBe("0.0.0.0 is an unspecified address")
    expect(addressRefusal("::1")).toBe("::1 is a loopback address")
    expect(addressRefusal("fe80::1")).toBe("fe80::1 is a link-local address")
    expect(addressRefusal("fd00:ec2::254")).toBe("fd00:ec2::254 is an IPv6 unique local address")
    expect(addressRefusal("::ffff:127.0.0.1")).toBe("::ffff:127.0.0.1 is a loopback address")
    expect(addressRefusal("::ffff:10.0.0.1")).toBe("::ffff:10.0.0.1 is a private (RFC 1918) address")
    expect(addressRefusal("224.0.0.1")).toBe("224.0.0.1 is a multicast address")
  })
})

const destination = (url: string, allowPrivateTargets = false) =>
  destinationOf(new URL(url), allowPrivateTargets).pipe(
    Effect.map(({ address }) => ({ address })),
    Effect.catchAll((error) => Effect.succeed({ [error._tag]: error.reason }))
  )

describe("destinationOf", () => {
  it.effect("resolves to an address to connect to, or refuses with the reason", () =>
    Effect.gen(function* () {
      expect(yield* destination("https://93.184.216.34/hook")).toEqual({ address: "93.184.216.34" })
      expect(yield* destination("https://[2606:4700:4700::1111]:8443/")).toEqual({ address: "2606:4700:4700::1111" })
      expect(yield* destination("http://93.184.216.34/hook")).toEqual({
        DestinationRefused: "Must be an https URL (plain http is allowed only when WEBHOOK_ALLOW_PRIVATE_TARGETS=true)"
      })
      expect(yield* destination("https://169.254.169.254/latest/meta-data")).toEqual({
        DestinationRefused:
          "169.254.169.254 is not a public destination: 169.254.169.254 is a link-local address. Webhooks go to public addresses only (set WEBHOOK_ALLOW_PRIVATE_TARGETS=true for development)."
      })
      expect(yield* destination("https://[::1]/")).toMatchObject({
        DestinationRefused: expect.stringMatching(/^::1 is not/)
      })
    })
  )

  it.effect("checks the addresses a name resolves to: localhost is loopback", () =>
    Effect.gen(function* () {
      expect(yield* destination("https://localhost:8443/hook")).toMatchObject({
        DestinationRefused: expect.stringMatching(
          /^localhost is not a public destination: (127\.0\.0\.1|::1) is a loopback address/
        )
      })
      expect(yield* destination("http://localhost:8443/hook", true)).toMatchObject({
        address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/)
      })
      expect(yield* destination("https://nowhere.invalid/")).toMatchObject({
        Unresolved: expect.stringMatching(/^nowhere\.invalid does not resolve/)
      })
    })
  )

  it.effect("at create time refuses private destinations but lets a name that does not resolve yet through", () =>
    Effect.gen(function* () {
      const guard = yield* DestinationGuard
      expect(yield* guard.check("https://nowhere.invalid/")).toBeUndefined()
      expect(yield* Effect.flip(guard.check("https://10.0.0.8/"))).toMatchObject({
        reason: expect.stringContaining("10.0.0.8 is a private (RFC 1918) address")
      })
    }).pipe(Effect.provide(destinationGuard({ allowPrivateTargets: false })))
  )
})
