import { Config } from "effect"

/** WEBHOOK_ALLOW_PRIVATE_TARGETS: plain http and private addresses, for development and tests. */
export const AllowPrivateTargets = Config.withDefault(Config.boolean("WEBHOOK_ALLOW_PRIVATE_TARGETS"), false)
