import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"

/**
 * Starts recording this process's CPU profile when `file` is given (BENCH_CPU_PROFILE); `stop`
 * writes it there (open it in Chrome DevTools or speedscope). Without a file both do nothing.
 */
export const startCpuProfile = async (file: string | undefined): Promise<{ readonly stop: () => Promise<void> }> => {
  if (file === undefined) return { stop: async () => undefined }
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 100 })
  await session.post("Profiler.start")
  return {
    stop: async () => {
      const { profile } = await session.post("Profiler.stop")
      writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
    }
  }
}

/** Records this process's CPU profile to `file`, if given, while `work` runs. */
export const withCpuProfile = async <A>(file: string | undefined, work: () => Promise<A>): Promise<A> => {
  const profiler = await startCpuProfile(file)
  try {
    return await work()
  } finally {
    await profiler.stop()
  }
}
