import { Effect, Layer } from "effect"
import { GovTalkConfig, warnRetiredSettings } from "./govtalk/GovTalkConfig.js"
import { govTalkTaxAuthority } from "./govtalk/GovTalkTaxAuthority.js"

/**
 * The tax authority: HMRC's Transaction Engine over GovTalk (TAX_AUTHORITY=govtalk), or the
 * local one the server serves (sandbox, the default); see GovTalkConfig. Warns, once, of retired
 * settings still set.
 */
export const TaxAuthorityLive = Layer.unwrapEffect(
  Effect.zipRight(warnRetiredSettings, Effect.map(GovTalkConfig, govTalkTaxAuthority))
)
