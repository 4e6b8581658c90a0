import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"

/**
 * Records this process's CPU profile while `work` runs and writes it to `file` (open it in
 * Chrome DevTools or speedscope). Used when BENCH_CPU_PROFILE names a file.
 */
export const withCpuProfile = async <A>(file: string | undefined, work: () => Promise<A>): Promise<A> => {
  if (file === undefined) return work()
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 100 })
  await session.post("Profiler.start")
  try {
    return await work()
  } finally {
    const { profile } = await session.post("Profiler.stop")
    writeFileSync(file, JSON.stringify(profile))
    session.disconnect()
  }
}
