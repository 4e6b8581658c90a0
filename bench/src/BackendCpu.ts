import * as fs from "node:fs"

/** Clock ticks a second, as /proc/<pid>/stat counts CPU time (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

/** The CPU seconds (user and system) of each live process whose command line names `database`. */
const backendTicks = (database: string): ReadonlyMap<number, number> => {
  const ticks = new Map<number, number>()
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    try {
      // A PostgreSQL backend names itself "postgres: <version>: <user> <database> <client> <state>".
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "latin1")
      if (!command.startsWith("postgres:") || !command.includes(` ${database} `)) continue
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1")
      // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      ticks.set(pid, Number(fields[11]) + Number(fields[12]))
    } catch {
      // The process ended while being read.
    }
  }
  return ticks
}

/**
 * Counts the CPU time PostgreSQL's backends serving `database` spend (its own background
 * processes, the WAL writer's say, are not counted), from now until the returned function is
 * called. Only on Linux, and only backends alive at that call count: the benchmark's pool keeps its
 * connections open. Where /proc cannot be read, the count is NaN.
 */
export const startBackendCpu = (database: string): (() => number) => {
  if (!fs.existsSync("/proc/self/stat")) return () => Number.NaN
  const before = backendTicks(database)
  return () => {
    let ticks = 0
    for (const [pid, now] of backendTicks(database)) ticks += now - (before.get(pid) ?? 0)
    return ticks / TICKS_PER_SECOND
  }
}
