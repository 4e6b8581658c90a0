import { Email } from "@cisbook/core/Email"
import { UserName } from "@cisbook/core/users/User"
import { Users } from "@cisbook/core/users/Users"
import { decodeInput } from "@cisbook/core/Validation"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Schema } from "effect"
import { admin } from "../Admin.js"
import { UsersLive } from "../AdminUseCases.js"

export const emailOption = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description))

const NewUser = Schema.Struct({ email: Email, name: UserName })

const createUser = Command.make(
  "create",
  {
    email: emailOption("email", "The user's email address (the address connection invitations are matched against)"),
    name: Options.text("name").pipe(Options.withDescription("The user's display name"))
  },
  (flags) =>
    admin(
      [UsersLive],
      Effect.gen(function* () {
        const input = yield* decodeInput(NewUser)(flags)
        const user = yield* (yield* Users).create(input)
        yield* Console.log(`Created user ${user.email} (${user.id}).`)
      })
    )
).pipe(Command.withDescription("Create a user"))

export const UsersCommand = Command.make("users").pipe(
  Command.withDescription("Users of the service"),
  Command.withSubcommands([createUser])
)
