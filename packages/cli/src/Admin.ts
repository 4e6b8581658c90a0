import { LookupCacheTtlLive } from "@cisbook/adapters/LookupCacheTtlLive"
import { SharedDatabaseLive } from "@cisbook/adapters/sql/Database"
import { MigrationsLive } from "@cisbook/adapters/sql/Migrations"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import type { CliApp } from "@effect/cli/CliApp"
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
 * What every admin command stands on: the configured database (a running server's embedded one
 * through its socket), migrated when built, with the system's clock, ids and crypto.
 */
const AdminFoundationLive = Layer.mergeAll(SystemLive, LookupCacheTtlLive).pipe(
  Layer.provideMerge(MigrationsLive),
  Layer.provideMerge(SharedDatabaseLive)
)

type AdminFoundation = Layer.Layer.Success<typeof AdminFoundationLive>

/** A use case over its adapters, standing on the foundation. */
type AdminUseCase = Layer.Layer<never, unknown, AdminFoundation>

/**
 * Runs an admin command with the use cases it names (AdminUseCases), built over the foundation
 * (the database is opened only now, so `--help` touches nothing), and those alone.
 */
export const admin = <
  const UseCases extends readonly [AdminUseCase, ...Array<AdminUseCase>],
  A,
  E,
  R extends { [K in keyof UseCases]: Layer.Layer.Success<UseCases[K]> }[number] | AdminFoundation | CliApp.Environment
>(
  useCases: UseCases,
  command: Effect.Effect<A, E, R>
) => reported(command.pipe(Effect.provide(Layer.mergeAll(...useCases)), Effect.provide(AdminFoundationLive)))
