import { Duration, Encoding } from "effect"

/** Standard Webhooks asks for 24 to 64 random bytes. */
export const WEBHOOK_SECRET_BYTES = 32

/** A signing secret as Standard Webhooks shows it: `whsec_` and the key in base64. */
export const formatWebhookSecret = (random: Uint8Array): string => `whsec_${Encoding.encodeBase64(random)}`

/** How long a rotated-out secret keeps signing deliveries, so receivers can switch without losing any. */
export const ROTATED_SECRET_OVERLAP = Duration.hours(24)
