/**
 * The secret GoCardless's notifications are signed with in sandbox mode when
 * GOCARDLESS_WEBHOOK_SECRET is not set: the sandbox signs with it and the receiver checks with
 * it. A development value, public on purpose (the README names it); never a production secret.
 */
export const SANDBOX_NOTIFICATION_SECRET = "cisbook-sandbox-webhook-secret"
