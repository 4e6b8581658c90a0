import { Effect, Layer } from "effect"
import { GovTalkConfig } from "./govtalk/GovTalkConfig.js"
import { govTalkTaxAuthority } from "./govtalk/GovTalkTaxAuthority.js"

/**
 * The tax authority: HMRC's Transaction Engine over GovTalk (TAX_AUTHORITY=govtalk), or the
 * local one the server serves (sandbox, the default); see GovTalkConfig.
 */
export const TaxAuthorityLive = Layer.unwrapEffect(Effect.map(GovTalkConfig, govTalkTaxAuthority))
