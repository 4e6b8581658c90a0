import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import * as path from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const autocannonBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("autocannon/package.json")),
  "autocannon.js"
)

export interface LoadResult {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
  /** CPU time this process spent per request while it ran: the server's cost, whatever else the machine did. */
  readonly cpuMicrosPerRequest: number
  /** Requests answered in all. */
  readonly requests: number
}

export interface LoadOptions {
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  readonly connections: number
  readonly seconds: number
  /** Requests a second over all connections (autocannon's -R); unset, as fast as the server answers. */
  readonly rate?: number
}

/**
 * Loads a URL from a separate process (autocannon), so that the load generator does not share
 * the event loop of the server it measures.
 */
export const loadTest = async (options: LoadOptions): Promise<LoadResult> => {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}=${v}`])
  const cpuBefore = process.cpuUsage()
  const { stdout } = await run(
    process.execPath,
    [
      autocannonBin,
      "--json",
      "-c",
      String(options.connections),
      "-d",
      String(options.seconds),
      ...(options.rate === undefined ? [] : ["-R", String(options.rate)]),
      ...headerArgs,
      options.url
    ],
    { maxBuffer: 64 * 1024 * 1024 }
  )
  const cpu = process.cpuUsage(cpuBefore)
  const result = JSON.parse(stdout)
  return {
    cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx
  }
}
