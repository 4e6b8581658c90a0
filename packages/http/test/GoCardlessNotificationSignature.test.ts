import { goCardlessNotificationSignature } from "@cisbook/adapters/gocardless/GoCardlessNotificationSignature"
import { ProviderEventSignature } from "@cisbook/core/billing/providerevents/ProviderEventSignature"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { verifySignature } from "gocardless-nodejs"
import { createHmac } from "node:crypto"

const SECRET = "endpoint-secret"
const body = JSON.stringify({ events: [{ id: "EV1", action: "failed" }], meta: { webhook_id: "WB1" } })
const hex = createHmac("sha256", SECRET).update(body).digest("hex")

/** What GoCardless's own client says of the signature. */
const clientAccepts = (signature: string) => {
  try {
    verifySignature(body, SECRET, signature)
    return true
  } catch {
    return false
  }
}

it.effect("accepts exactly the signatures GoCardless's own client accepts", () =>
  Effect.gen(function* () {
    const { verify } = yield* ProviderEventSignature
    const cases = [
      hex,
      hex.toUpperCase(),
      hex.slice(0, 62),
      `${hex}00`,
      "",
      "zz",
      createHmac("sha256", "another").update(body).digest("hex"),
      createHmac("sha256", SECRET).update(`${body}\n`).digest("hex")
    ]
    for (const signature of cases) {
      expect(yield* verify(body, signature), signature).toBe(clientAccepts(signature))
    }
    expect(yield* verify(body, hex)).toBe(true)
    expect(yield* verify(body, undefined)).toBe(false)
  }).pipe(Effect.provide(goCardlessNotificationSignature(Redacted.make(SECRET))))
)
