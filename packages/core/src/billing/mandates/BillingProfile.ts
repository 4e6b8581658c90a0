import type { Option } from "effect"
import type { BillingAddress } from "./BillingAddress.js"
import type { MandateStatus } from "./MandateStatus.js"

/** The caller's billing address (none until first set) and where their mandate stands. */
export interface BillingProfile {
  readonly address: Option.Option<BillingAddress>
  readonly mandateStatus: MandateStatus
}
