import { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import { Effect, Layer } from "effect"
import { onFirstCall } from "../OnFirstCall.js"
import { GovTalkConfig, warnRetiredSettings, warnTestInLive } from "./govtalk/GovTalkConfig.js"

/**
 * The tax authority: HMRC's Transaction Engine over GovTalk (TAX_AUTHORITY=govtalk), or the
 * local one the server serves (sandbox, the default); see GovTalkConfig. Warns, once, of retired
 * settings still set, and of test submissions to HMRC's live engine. Every call is measured. The configuration is read, and refused, when the layer is built; the
 * GovTalk adapter, with its XML libraries and its metrics, is imported at the first call (see onFirstCall).
 */
export const TaxAuthorityLive = Layer.unwrapEffect(
  Effect.zipRight(
    warnRetiredSettings,
    Effect.map(Effect.tap(GovTalkConfig, warnTestInLive), (options) =>
      onFirstCall(TaxAuthority, async () => {
        const [{ govTalkTaxAuthority }, { measuredPort }] = await Promise.all([
          import("./govtalk/GovTalkTaxAuthority.js"),
          import("../metrics/ProviderCallMetrics.js")
        ])
        return govTalkTaxAuthority(options).pipe(measuredPort(TaxAuthority, "tax_authority"))
      })
    )
  )
)
