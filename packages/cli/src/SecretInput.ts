import { Prompt } from "@effect/cli"
import type { Terminal } from "@effect/platform"
import { Context, Effect, Redacted } from "effect"

/** A user id and its password, as the operator gave them on standard input. */
export interface SecretPair {
  readonly userId: string
  readonly password: Redacted.Redacted<string>
}

const readAll = async (stream: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * Reads a user id and a password from standard input, never from an argument (which the shell
 * keeps in its history and `ps` shows): at a terminal, asked for with the password hidden;
 * piped, the first line and the second line.
 */
export class SecretInput extends Context.Reference<SecretInput>()("cli/SecretInput", {
  defaultValue: () => ({
    read: (userIdLabel: string, passwordLabel: string): Effect.Effect<SecretPair, never, Terminal.Terminal> =>
      process.stdin.isTTY
        ? Effect.orDie(
            Effect.all({
              userId: Prompt.text({ message: userIdLabel }),
              password: Prompt.hidden({ message: passwordLabel })
            })
          )
        : Effect.map(
            Effect.promise(() => readAll(process.stdin)),
            (text) => {
              const [userId = "", password = ""] = text.split(/\r?\n/)
              return { userId: userId.trim(), password: Redacted.make(password) }
            }
          )
  })
}) {}
