import { AdminAppLive } from "@cisbook/adapters/AppLive"
import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Console, Effect, Layer, Logger, LogLevel } from "effect"

/** What a failure says to the person at the terminal: the sentence written for them, and each invalid member. */
const explain = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const e = error as { detail?: unknown; errors?: Record<string, ReadonlyArray<string>>; message?: unknown }
    if (typeof e.detail === "string") {
      const members = Object.entries(e.errors ?? {}).map(([member, messages]) => `  ${member}: ${messages.join("; ")}`)
      return [e.detail, ...members].join("\n")
    }
    if (typeof e.message === "string" && e.message !== "") return e.message
  }
  return String(error)
}

/** Logs go to stderr, so that stdout carries only what a command prints. */
const QuietLogger = Layer.merge(
  Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
  Logger.minimumLogLevel(LogLevel.Warning)
)

/** Prints a failure to stderr and sets exit code 1; logs go to stderr too. */
export const reported = <A, E, R>(command: Effect.Effect<A, E, R>) =>
  command.pipe(
    Effect.catchAll((error) =>
      Console.error(`Error: ${explain(error)}`).pipe(Effect.zipRight(Effect.sync(() => (process.exitCode = 1))))
    ),
    Effect.provide(QuietLogger)
  )

/**
 * Runs an admin command over the configured, migrated database (a running server's embedded one
 * through its socket), which is opened only now (so
 * `--help` touches nothing).
 */
export const admin = <A, E, R>(command: Effect.Effect<A, E, R>) => reported(Effect.provide(command, AdminAppLive))

/** Runs a use case for the tenant with `code` as support staff, who act for any tenant with an Owner's rights. */
export const asSupport =
  (code: string) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    Effect.provideServiceEffect(
      useCase,
      CurrentTenant,
      Effect.flatMap(Tenants, (tenants) => tenants.supportAccess(code))
    )
