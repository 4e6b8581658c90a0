import { Effect, Layer } from "effect"
import { HeldForCredentials } from "../credentials/HeldForCredentials.js"
import { releaseHeld } from "./ReleaseHeld.js"

/** A tenant's returns and verifications held for its credentials, sent again once they are replaced (see releaseHeld). */
export const HeldForCredentialsLive = Layer.effect(
  HeldForCredentials,
  Effect.map(releaseHeld, (release) => HeldForCredentials.of({ release: (tenantId, at) => release(tenantId, at) }))
)
