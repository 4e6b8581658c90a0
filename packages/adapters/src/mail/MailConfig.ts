import { Config, Option } from "effect"

/** SMTP_URL (none: mail stays queued), MAIL_FROM and SMTP_CONNECTIONS. */
export const MailConfig = Config.all({
  smtpUrl: Config.option(Config.nonEmptyString("SMTP_URL")),
  from: Config.withDefault(Config.nonEmptyString("MAIL_FROM"), "cisbook@localhost"),
  connections: Config.withDefault(
    Config.integer("SMTP_CONNECTIONS").pipe(
      Config.validate({ message: "Must be a whole number from 1 to 100", validation: (n) => n >= 1 && n <= 100 })
    ),
    5
  )
}).pipe(Config.map((config) => ({ ...config, smtpUrl: Option.getOrNull(config.smtpUrl) })))
