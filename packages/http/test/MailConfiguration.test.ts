import { MailConfig } from "@cisbook/adapters/mail/MailConfig"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { MailSenderConfig } from "../src/workers/MailSender.js"

import { refused, withEnv } from "./ConfigEnv.js"

describe("the mail settings the README documents", () => {
  it.effect("SMTP_URL absent means no sending; MAIL_FROM and SMTP_CONNECTIONS have defaults and bounds", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({})(MailConfig)).toEqual({ smtpUrl: null, from: "cisbook@localhost", connections: 5 })
      expect(
        yield* withEnv({
          SMTP_URL: "smtp://127.0.0.1:2525",
          MAIL_FROM: "mail@lovelace.example",
          SMTP_CONNECTIONS: "100"
        })(MailConfig)
      ).toEqual({ smtpUrl: "smtp://127.0.0.1:2525", from: "mail@lovelace.example", connections: 100 })
      expect(yield* refused({ SMTP_CONNECTIONS: "0" }, MailConfig)).toContain("Must be a whole number from 1 to 100")
      expect(yield* refused({ SMTP_CONNECTIONS: "101" }, MailConfig)).toContain("Must be a whole number from 1 to 100")
    })
  )

  it.effect("MAIL_SENDER, MAIL_CONCURRENCY, MAIL_POLL_INTERVAL_MS and MAIL_LEASE_SECONDS: defaults and bounds", () =>
    Effect.gen(function* () {
      const defaults = yield* withEnv({})(MailSenderConfig)
      expect(defaults.enabled).toBe(true)
      expect(defaults.concurrency).toBe(50)
      expect(Duration.toMillis(defaults.pollInterval)).toBe(1000)
      expect(Duration.toSeconds(defaults.lease)).toBe(300)
      const set = yield* withEnv({
        MAIL_SENDER: "false",
        MAIL_CONCURRENCY: "1000",
        MAIL_POLL_INTERVAL_MS: "10",
        MAIL_LEASE_SECONDS: "120"
      })(MailSenderConfig)
      expect(set.enabled).toBe(false)
      expect(set.concurrency).toBe(1000)
      expect(Duration.toMillis(set.pollInterval)).toBe(10)
      expect(Duration.toSeconds(set.lease)).toBe(120)
      expect(yield* refused({ MAIL_CONCURRENCY: "1001" }, MailSenderConfig)).toContain("from 1 to 1000")
      expect(yield* refused({ MAIL_POLL_INTERVAL_MS: "9" }, MailSenderConfig)).toContain("from 10 to 60000")
      expect(yield* refused({ MAIL_LEASE_SECONDS: "119" }, MailSenderConfig)).toContain("from 120 to 3600")
    })
  )
})
