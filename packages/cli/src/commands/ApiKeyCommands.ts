import { ApiKeyName } from "@cisbook/core/apikeys/ApiKey"
import { Email } from "@cisbook/core/Email"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Users } from "@cisbook/core/users/Users"
import { decodeInput } from "@cisbook/core/Validation"
import { asUser } from "@cisbook/core/users/ActingAs"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Schema } from "effect"
import { admin } from "../Admin.js"
import { ApiKeysLive, UsersLive } from "../AdminUseCases.js"
import { emailOption } from "./UserCommands.js"

const NewKey = Schema.Struct({ email: Email, name: ApiKeyName })

const createKey = Command.make(
  "create",
  {
    email: emailOption("email", "Email address of the user the key acts as"),
    name: Options.text("name").pipe(
      Options.withDefault("cli"),
      Options.withDescription("A label to recognise the key by")
    )
  },
  (flags) =>
    admin(
      [UsersLive, ApiKeysLive],
      Effect.gen(function* () {
        const input = yield* decodeInput(NewKey)(flags)
        const user = yield* (yield* Users).byEmail(input.email)
        const { apiKey, key } = yield* (yield* ApiKeys).issue(input.name).pipe(asUser(user))
        yield* Console.log(`Created API key "${apiKey.name}" (${apiKey.id}) for ${user.email}. It is shown once:`)
        yield* Console.log(key)
      })
    )
).pipe(Command.withDescription("Create an API key; the key is printed alone on the last line"))

export const ApiKeysCommand = Command.make("api-keys").pipe(
  Command.withDescription("API keys"),
  Command.withSubcommands([createKey])
)
