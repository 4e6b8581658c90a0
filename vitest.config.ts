import { configDefaults, defineConfig } from "vitest/config"

// Two projects, their pool and isolation chosen on measurement (docs/benchmarks.md, "tests"):
// - unit: core and the memory fakes, no database and no process-wide state. One worker runs file
//   after file in the same module graph (isolate: false), so effect and the sources are loaded
//   once a worker rather than once a file, which was half of the suite's CPU.
// - integration: everything over a database, a server or a child process, each file in a fresh
//   process (forks, isolated: they start servers, hold ports and set process-wide handlers). Their
//   databases are copies of one migrated template made once a run (DatabaseTemplate.ts).
const unit = ["packages/core/test/**/*.test.ts", "packages/testkit/test/**/*.test.ts"]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Vitest makes one pool a kind, with the root's options: threads (the unit project's) reuse
    // a worker from file to file, forks (the integration project's) start a fresh one a file.
    poolOptions: { threads: { isolate: false }, forks: { isolate: true } },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: unit, pool: "threads" }
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["packages/*/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...unit],
          pool: "forks",
          globalSetup: ["packages/adapters/test/DatabaseTemplate.ts"]
        }
      }
    ]
  }
})
