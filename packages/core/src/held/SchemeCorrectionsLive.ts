import { Effect, Layer, Option } from "effect"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { SchemeCorrections } from "../tenants/SchemeCorrections.js"
import { releaseHeld } from "./ReleaseHeld.js"

/**
 * A corrected CIS scheme registration: credentials HMRC refused may have been refused for the old
 * employer reference, so they are no longer taken as refused (Unchecked until HMRC's next answer),
 * and what was held for them is sent again under the corrected scheme.
 */
export const SchemeCorrectionsLive = Layer.effect(
  SchemeCorrections,
  Effect.gen(function* () {
    const release = yield* releaseHeld
    const credentials = yield* HmrcCredentialsRepo
    return SchemeCorrections.of({
      corrected: (tenantId, scheme, at) =>
        Effect.gen(function* () {
          const current = yield* credentials.findForUpdate(tenantId)
          if (Option.isSome(current) && current.value.status === "Refused")
            yield* credentials.recordStatus(tenantId, current.value.updatedAt, "Unchecked")
          yield* release(tenantId, at, scheme)
        })
    })
  })
)
