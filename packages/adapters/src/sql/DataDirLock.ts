import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Data, Effect, type Scope } from "effect"

export class DatabaseLocked extends Data.TaggedError("DatabaseLocked")<{
  readonly dataDir: string
  readonly pid: number
}> {
  override get message() {
    return (
      `The embedded database in ${this.dataDir} is in use by process ${this.pid}. ` +
      `Stop that process, or set DATABASE_URL to use a PostgreSQL server.`
    )
  }
}

/** Lock files this process holds; a lock naming our pid but absent here is a previous incarnation's. */
const heldHere = new Set<string>()

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const holderOf = (file: string): number | undefined => {
  try {
    const pid = Number(fs.readFileSync(file, "utf8").trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

const isHeld = (file: string, pid: number) => (pid === process.pid ? heldHere.has(file) : isAlive(pid))

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code

/**
 * Takes `file` for this process, or names the live process that has it. The file appears
 * with its content in one step (a hard link from a written temporary file), so a reader never
 * sees it empty. A stale file is moved aside before it is removed, so that of two processes
 * taking over the same stale lock, the later one notices it moved the winner's.
 */
const take = (file: string): number | undefined => {
  const own = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
  fs.writeFileSync(own, `${process.pid}\n`)
  try {
    for (;;) {
      try {
        fs.linkSync(own, file)
        heldHere.add(file)
        return undefined
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error
      }
      const holder = holderOf(file)
      if (holder !== undefined && isHeld(file, holder)) return holder
      const aside = `${own}.stale`
      try {
        fs.renameSync(file, aside)
      } catch (error) {
        if (errorCode(error) === "ENOENT") continue
        throw error
      }
      const moved = holderOf(aside)
      if (moved !== undefined && isHeld(file, moved)) {
        fs.linkSync(aside, file)
        fs.rmSync(aside)
        return moved
      }
      fs.rmSync(aside)
    }
  } finally {
    fs.rmSync(own, { force: true })
  }
}

const release = (file: string) => {
  heldHere.delete(file)
  if (holderOf(file) === process.pid) fs.rmSync(file, { force: true })
}

/**
 * Holds `<dataDir>/cisbook.lock` for the scope, so that no two processes open one embedded
 * database. Fails with DatabaseLocked while another live process (or this one) holds it.
 */
export const lockDataDir = (dataDir: string): Effect.Effect<void, DatabaseLocked, Scope.Scope> => {
  const dir = path.resolve(dataDir)
  const file = path.join(dir, "cisbook.lock")
  return Effect.acquireRelease(
    Effect.sync(() => {
      fs.mkdirSync(dir, { recursive: true })
      return take(file)
    }).pipe(
      Effect.flatMap((holder) =>
        holder === undefined ? Effect.void : Effect.fail(new DatabaseLocked({ dataDir: dir, pid: holder }))
      )
    ),
    () => Effect.sync(() => release(file))
  )
}
