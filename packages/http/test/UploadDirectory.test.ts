import { FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { uploadDirectory } from "../src/uploads/UploadDirectory.js"

describe("the upload directory", () => {
  it.effect("is emptied at start, holds every temporary directory, and each is removed with its request", () =>
    Effect.gen(function* () {
      const directory = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-uploads-")), "uploads")
      // What a process killed in the middle of an import left behind.
      fs.mkdirSync(path.join(directory, "abc123"), { recursive: true })
      fs.writeFileSync(path.join(directory, "abc123", "contacts.csv"), "Name,Email\nAda,ada@example.com\n")

      const madeDuringRequest = yield* Effect.gen(function* () {
        expect(fs.readdirSync(directory)).toEqual([])
        const files = yield* FileSystem.FileSystem
        const made = yield* Effect.scoped(
          Effect.gen(function* () {
            const temp = yield* files.makeTempDirectoryScoped()
            expect(path.dirname(temp)).toBe(path.resolve(directory))
            expect(fs.readdirSync(directory)).toHaveLength(1)
            return temp
          })
        )
        return made
      }).pipe(Effect.provide(uploadDirectory(directory).pipe(Layer.provide(NodeFileSystem.layer))))

      expect(fs.existsSync(madeDuringRequest)).toBe(false)
      expect(fs.readdirSync(directory)).toEqual([])
    })
  )
})
