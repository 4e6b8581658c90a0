import { FileSystem } from "@effect/platform"
import { Config, Effect, Layer } from "effect"

/** UPLOAD_DIR (default ./data/uploads): where uploaded files are kept while their request runs. */
export const UploadDirectoryConfig = Config.withDefault(Config.string("UPLOAD_DIR"), "./data/uploads")

/**
 * Puts every temporary directory the server makes (multipart uploads: contact import files, with
 * names, emails and tax references) in one directory of its own, emptied when the server starts.
 * A request removes its files when it ends; a process killed mid-request leaves them there only
 * until it starts again.
 */
export const uploadDirectory = (directory: string) =>
  Layer.effect(
    FileSystem.FileSystem,
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      yield* fs.remove(directory, { recursive: true, force: true })
      yield* fs.makeDirectory(directory, { recursive: true })
      return FileSystem.FileSystem.of({
        ...fs,
        makeTempDirectory: (options) => fs.makeTempDirectory({ directory, ...options }),
        makeTempDirectoryScoped: (options) => fs.makeTempDirectoryScoped({ directory, ...options })
      })
    })
  )

export const UploadDirectoryLive = Layer.unwrapEffect(Effect.map(UploadDirectoryConfig, uploadDirectory))
