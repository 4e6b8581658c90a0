import { Effect } from "effect"
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"

/** The SHA-256 of a received upload file, read from disk as a stream (an upload may be megabytes). */
export const uploadDigest = (path: string): Effect.Effect<string> =>
  Effect.async<string, Error>((resume) => {
    const hash = createHash("sha256")
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resume(Effect.succeed(hash.digest("base64url"))))
      .on("error", (error) => resume(Effect.fail(error)))
  }).pipe(Effect.orDie)
