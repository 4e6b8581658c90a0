import { Config, Effect, Layer } from "effect"
import { SandboxTaxAuthority } from "./SandboxTaxAuthority.js"

/** TAX_AUTHORITY: `sandbox` (the default, and the only one until HMRC's service is wired; see docs/hmrc-verification.md). */
export const TaxAuthorityLive = Layer.unwrapEffect(
  Effect.map(Config.withDefault(Config.literal("sandbox")("TAX_AUTHORITY"), "sandbox"), () => SandboxTaxAuthority)
)
