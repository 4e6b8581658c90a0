import { Config, ConfigError, Either, LogLevel } from "effect"

/** The names the README gives, and Effect's own labels (ALL, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, NONE). */
const levelsByName: ReadonlyMap<string, LogLevel.LogLevel> = new Map([
  ...LogLevel.allLevels.map((level) => [level.label.toLowerCase(), level] as const),
  ...LogLevel.allLevels.map((level) => [level._tag.toLowerCase(), level] as const)
])

/** A log level by name, in any case: `Trace`, `Debug`, `Info`, `Warning`, `Error`, `Fatal`, `None`, `All`, or `WARN`. */
export const logLevelConfig = (name: string): Config.Config<LogLevel.LogLevel> =>
  Config.mapOrFail(Config.string(name), (value) => {
    const level = levelsByName.get(value.trim().toLowerCase())
    return level === undefined
      ? Either.left(
          ConfigError.InvalidData(
            [name],
            `Expected one of Trace, Debug, Info, Warning, Error (or Fatal, None, All) but received ${value}`
          )
        )
      : Either.right(level)
  })
