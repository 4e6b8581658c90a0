import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { webhookDispatcher } from "@cisbook/http/workers/WebhookDispatcher"
import type { Email } from "@cisbook/core/Email"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { Transactor } from "@cisbook/core/system/Transactor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { chosenDatabases, type Database } from "../Databases.js"
import { startCpuProfile } from "../CpuProfile.js"
import { startHelperProcess } from "../HelperProcess.js"
import { runOver } from "../WorkerBenchApp.js"
import { runBareDispatcher } from "./BareDispatcher.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const EVENTS = Number(process.env["BENCH_WEBHOOK_EVENTS"] ?? 5_000)
const CONCURRENCY = Number(process.env["BENCH_WEBHOOK_CONCURRENCY"] ?? 50)
/** A file to write this process's CPU profile of the dispatch to (the dispatcher runs here). */
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"]

/** The receiver in its own process, and a way to ask it what it got. */
const startReceiver = Effect.map(
  startHelperProcess(path.join(path.dirname(fileURLToPath(import.meta.url)), "ReceiverProcess.ts")),
  ({ firstLine }) => ({ url: `http://127.0.0.1:${firstLine}` })
)

const call = (url: string, init?: RequestInit) => Effect.promise(() => fetch(url, init).then((r) => r.text()))

interface Row {
  readonly database: string
  readonly events: number
  readonly sendSeconds: number
  readonly recordSeconds: number
  /** The dispatcher process's CPU time per delivery (the receiver runs in its own process). */
  readonly cpuMicrosPerDelivery: number
  /** The same deliveries again through the bare dispatcher: all recorded, s, and its CPU per delivery. */
  readonly bareSeconds: number
  readonly bareCpuMicrosPerDelivery: number
}

/** Every delivery due again as it was queued: no attempt, no lease (the bare dispatcher's run starts from here). */
const queuedAgain = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.zipRight(
    sql`DELETE FROM webhook_delivery_attempts`,
    sql`UPDATE webhook_deliveries SET status = 'Pending', attempts = 0, automatic_attempts = 0,
      next_attempt_at = created_at, retry_requested_at = NULL, lease_token = NULL, leased_until = NULL`
  )
)

const measure = (database: Database) =>
  Effect.gen(function* () {
    const receiver = yield* startReceiver
    const owner = yield* (yield* Users).create({ email: "bench@example.com" as Email, name: "Bench" })
    yield* (yield* Tenants)
      .create({ code: TenantCode.make("bench-hooks"), name: "Bench", email: null })
      .pipe(asUser(owner))
    const { secret, webhook } = yield* (yield* Webhooks)
      .create({ url: `${receiver.url}/in` })
      .pipe(asMember(owner, "bench-hooks"))
    yield* call(`${receiver.url}/trust`, { method: "POST", body: secret })

    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    for (let done = 0; done < EVENTS; done += 500) {
      const events = Array.from({ length: Math.min(500, EVENTS - done) }, (_, i) => ({
        type: "contact.created" as const,
        data: { code: `C${done + i}`, name: "A contact with a name of some length", email: "someone@example.com" }
      }))
      yield* transaction(outbox.record(webhook.tenantId, events))
    }

    const sql = yield* SqlClient.SqlClient
    const profiler = yield* Effect.promise(() => startCpuProfile(CPU_PROFILE))
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(
      webhookDispatcher({ pollInterval: Duration.millis(10), concurrency: CONCURRENCY, lease: Duration.seconds(60) }),
      scope
    )
    let sendSeconds = 0
    for (;;) {
      const stats = JSON.parse(yield* call(`${receiver.url}/stats`)) as {
        received: number
        rejected: number
        unique: number
      }
      if (stats.rejected > 0) return yield* Effect.die(`${stats.rejected} signatures did not verify`)
      if (sendSeconds === 0 && stats.received >= EVENTS) sendSeconds = (performance.now() - started) / 1000
      const [{ n } = { n: 0 }] = yield* sql<{ n: number }>`
        SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'Succeeded'`
      if (n >= EVENTS) {
        if (stats.unique !== EVENTS)
          return yield* Effect.die(`${stats.unique} distinct webhook-ids for ${EVENTS} events`)
        break
      }
      yield* Effect.sleep("50 millis")
    }
    const recordSeconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    yield* Effect.promise(() => profiler.stop())
    yield* Scope.close(scope, Exit.void)

    yield* queuedAgain
    yield* call(`${receiver.url}/reset`, { method: "POST" })
    const bareCpuBefore = process.cpuUsage()
    const bareStarted = performance.now()
    const bareDelivered = yield* Effect.promise(() => runBareDispatcher(database.pool, CONCURRENCY, 60_000))
    const bareSeconds = (performance.now() - bareStarted) / 1000
    const bareCpu = process.cpuUsage(bareCpuBefore)
    const bareStats = JSON.parse(yield* call(`${receiver.url}/stats`)) as { rejected: number; unique: number }
    if (bareDelivered !== EVENTS || bareStats.rejected > 0 || bareStats.unique !== EVENTS) {
      return yield* Effect.die(`The bare dispatcher delivered ${bareDelivered}: ${JSON.stringify(bareStats)}`)
    }
    const row: Row = {
      database: database.label,
      events: EVENTS,
      sendSeconds,
      recordSeconds,
      cpuMicrosPerDelivery: (cpu.user + cpu.system) / EVENTS,
      bareSeconds,
      bareCpuMicrosPerDelivery: (bareCpu.user + bareCpu.system) / EVENTS
    }
    yield* Effect.logWarning(`${database.label}: ${(EVENTS / recordSeconds).toFixed(0)} deliveries/s`)
    return row
  }).pipe(Effect.scoped)

const run = (database: Database) => runOver(database)(measure(database))

export const main = async () => {
  const rows: Array<Row> = []
  for (const open of chosenDatabases()) {
    rows.push(await Effect.runPromise(run(await open())))
  }
  console.log(
    [
      `\nWebhook deliveries to a local receiver that verifies every signature, ${EVENTS} events, ${CONCURRENCY} at once\n`,
      "| database | events | all received, s | all recorded, s | deliveries/s | dispatcher CPU µs/delivery | bare: all recorded, s | bare deliveries/s | bare CPU µs/delivery | CPU ours/bare |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.database} | ${r.events} | ${r.sendSeconds.toFixed(2)} | ${r.recordSeconds.toFixed(2)} | ${(r.events / r.recordSeconds).toFixed(0)} | ${r.cpuMicrosPerDelivery.toFixed(0)} | ${r.bareSeconds.toFixed(2)} | ${(r.events / r.bareSeconds).toFixed(0)} | ${r.bareCpuMicrosPerDelivery.toFixed(0)} | ${(r.cpuMicrosPerDelivery / r.bareCpuMicrosPerDelivery).toFixed(2)} |`
      ),
      ""
    ].join("\n")
  )
}
