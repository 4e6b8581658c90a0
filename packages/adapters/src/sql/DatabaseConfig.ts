import { Config, Option, Redacted } from "effect"

export type DatabaseChoice =
  { readonly _tag: "Server"; readonly url: Redacted.Redacted } | { readonly _tag: "Embedded"; readonly dataDir: string }

/** PostgreSQL at DATABASE_URL when it is set (and not blank); otherwise the embedded database in DATA_DIR (default ./data). */
export const DatabaseConfig: Config.Config<DatabaseChoice> = Config.all({
  url: Config.option(Config.redacted("DATABASE_URL")),
  dataDir: Config.withDefault(Config.string("DATA_DIR"), "./data")
}).pipe(
  Config.map(({ dataDir, url }) =>
    Option.match(
      Option.filter(url, (u) => Redacted.value(u).trim() !== ""),
      {
        onNone: (): DatabaseChoice => ({ _tag: "Embedded", dataDir }),
        onSome: (server): DatabaseChoice => ({ _tag: "Server", url: server })
      }
    )
  )
)
