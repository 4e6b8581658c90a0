import { Config, Effect, Layer } from "effect"
import { SandboxTaxAuthority } from "./SandboxTaxAuthority.js"

/** TAX_AUTHORITY: `sandbox` (the default, and the only one until HMRC's service is wired; see docs/hmrc-verification.md). */
export const SelectedTaxAuthority = Effect.map(
  Config.withDefault(Config.literal("sandbox")("TAX_AUTHORITY"), "sandbox"),
  () => SandboxTaxAuthority
)

/** The tax authority TAX_AUTHORITY selects. */
export const TaxAuthorityLive = Layer.unwrapEffect(SelectedTaxAuthority)
