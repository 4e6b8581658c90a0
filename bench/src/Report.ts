import type { LoadResult } from "./LoadTest.js"

export interface Row {
  readonly database: string
  readonly scenario: string
  readonly cisbook: LoadResult
  readonly bare: LoadResult
}

const fixed = (n: number, digits = 1) => n.toFixed(digits)

/** A markdown table: throughput and latency of cisbook beside the bare server, and their ratio. */
export const markdownTable = (rows: ReadonlyArray<Row>): string =>
  [
    "| database | scenario | cisbook req/s | p50 ms | p99 ms | CPU µs/req | bare req/s | bare p99 ms | bare CPU µs/req | ratio |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.scenario} | ${fixed(r.cisbook.requestsPerSecond, 0)} | ${fixed(r.cisbook.p50)} | ${fixed(r.cisbook.p99)} | ${fixed(r.cisbook.cpuMicrosPerRequest, 0)} | ${fixed(r.bare.requestsPerSecond, 0)} | ${fixed(r.bare.p99)} | ${fixed(r.bare.cpuMicrosPerRequest, 0)} | ${fixed(r.cisbook.requestsPerSecond / r.bare.requestsPerSecond, 2)} |`
    )
  ].join("\n")

export const checkClean = (label: string, result: LoadResult) => {
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${label}: ${result.errors} errors and ${result.non2xx} non-2xx answers; the figures would be meaningless`
    )
  }
}
