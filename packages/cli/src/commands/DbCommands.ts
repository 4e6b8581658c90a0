import { DatabaseLive } from "@cisbook/adapters/sql/Database"
import { migrate } from "@cisbook/adapters/sql/Migrations"
import { Command } from "@effect/cli"
import { Console, Effect } from "effect"
import { reported } from "../Admin.js"

const migrateCommand = Command.make("migrate", {}, () =>
  reported(
    migrate.pipe(
      Effect.flatMap((ran) =>
        ran.length === 0
          ? Console.log("The database schema is up to date.")
          : Console.log(ran.map(([id, name]) => `Applied ${id}_${name}`).join("\n"))
      ),
      Effect.provide(DatabaseLive)
    )
  )
).pipe(Command.withDescription("Bring the database schema up to date"))

export const DbCommand = Command.make("db").pipe(
  Command.withDescription("Database maintenance"),
  Command.withSubcommands([migrateCommand])
)
