import { Option } from "effect"
import type { HmrcCredentials } from "./HmrcCredentials.js"

/**
 * Which credentials a 1046 at a poll blames: those the message was sent with (by when they were
 * set), or the tenant's current ones for a sending recorded before that was kept.
 */
export const refusedCredentialsSetAt = (
  sent: { readonly credentialsSetAt: Date | null },
  current: Option.Option<HmrcCredentials>
): Date | null => sent.credentialsSetAt ?? Option.getOrNull(Option.map(current, (c) => c.updatedAt))
