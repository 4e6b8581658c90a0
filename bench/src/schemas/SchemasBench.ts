import { FilingCheckHmrc } from "@cisbook/adapters/taxauthority/govtalk/FilingCheckHmrc"
import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { FilingCheck } from "@cisbook/core/taxauthority/FilingCheck"
import type { ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import type { VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { sampleCisScheme } from "@cisbook/testkit/CisSchemeFixtures"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { submittedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"

// `pnpm bench schemas`: what checking a document against HMRC's schemas costs, as `POST
// .../monthly-returns` and `POST .../verification` pay it (FilingCheckHmrc, the filing check the
// server runs): the first check of a process (loading libxml2 and the schemas), then BENCH_RUNS
// (default 50) more of each document, one after the other, and as many at once. Documents: a
// verification, a return of one line and a return of BENCH_LINES (default 1,000) lines.

const RUNS = Number(process.env["BENCH_RUNS"] ?? 50)
const LINES = Number(process.env["BENCH_LINES"] ?? 1_000)
const details = Schema.decodeSync(CisDetails)

const aReturn = (lines: number): ReturnSubmission => ({
  id: MonthlyReturnId.make(randomUUID()),
  periodEnd: "2026-06-05",
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123", scheme: sampleCisScheme }),
  nilReturn: false,
  inactive: false,
  declarations: submittedDeclarations(),
  lines: Array.from(
    { length: lines },
    (_, i) =>
      new ReturnLine({
        contactId: ContactId.make(randomUUID()),
        contactCode: `SUB${i}`,
        name: `Subcontractor ${i} Ltd`,
        utr: "2234567890",
        verificationNumber: "V1234567890",
        taxTreatment: "Net",
        grossAmount: 600_000,
        materials: 100_000,
        deducted: 100_000,
        cisDetails: details({ type: "Company", tradingName: `Subcontractor ${i} Ltd`, utr: "2234567890" })
      })
  )
})

const verification: VerificationRequest = {
  contractor: { utr: "8456789123", scheme: sampleCisScheme },
  subcontractor: details({ type: "SoleTrader", firstName: "Ann", lastName: "Ash", utr: "2234567890" })
}

const millis = (started: number) => performance.now() - started

const timed = <A, E, R>(check: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.map(check, () => millis(started))
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

const row = (name: string, first: number | null, times: ReadonlyArray<number>, together: number) => {
  const sorted = [...times].sort((a, b) => a - b)
  const cell = (n: number) => n.toFixed(1)
  return `| ${name} | ${first === null ? "" : cell(first)} | ${cell(percentile(sorted, 50))} | ${cell(percentile(sorted, 95))} | ${cell(Math.max(...sorted))} | ${cell(together)} |`
}

export const main = () =>
  Effect.runPromise(
    Effect.gen(function* () {
      const check = yield* FilingCheck
      const one = aReturn(1)
      const many = aReturn(LINES)
      const documents = [
        ["verification", check.checkVerification(verification)],
        ["return, 1 line", check.checkReturn(one)],
        [`return, ${LINES} lines`, check.checkReturn(many)]
      ] as const
      const [, firstCheck] = documents[0]
      const first = yield* timed(firstCheck)
      const rows = [
        "| document | first check of the process, ms | p50 ms | p95 ms | max ms | " + `${RUNS} at once, ms in all |`,
        "|---|---:|---:|---:|---:|---:|"
      ]
      for (const [name, document] of documents) {
        const problems = yield* document
        if (problems.length > 0) throw new Error(`${name}: HMRC's schema refused it: ${JSON.stringify(problems)}`)
        const times = yield* Effect.forEach(Array.from({ length: RUNS }), () => timed(document))
        const together = yield* timed(
          Effect.forEach(Array.from({ length: RUNS }), () => document, { concurrency: "unbounded" })
        )
        rows.push(row(name, name === "verification" ? first : null, times, together))
      }
      console.log(rows.join("\n"))
    }).pipe(Effect.provide(FilingCheckHmrc), Effect.scoped)
  )
