import { Contact, notVerified, Verification } from "@cisbook/core/contacts/Contact"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { Email } from "@cisbook/core/Email"
import { Conflict } from "@cisbook/core/Errors"
import { PurchaseInvoices } from "@cisbook/core/invoices/PurchaseInvoices"
import { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { Transactor } from "@cisbook/core/system/Transactor"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { asUser } from "@cisbook/core/users/ActingAs"
import { Users } from "@cisbook/core/users/Users"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { sampleCisScheme, sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { assert, describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Cause, Config, Deferred, Effect, Exit, Fiber, Option, Schedule } from "effect"
import { UseCasesOverSql } from "./UseCasesOverSql.js"

const onPostgres = Option.isSome(Config.option(Config.string("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync))

let tenants = 0
/**
 * A contractor tenant ready to file (CIS details, scheme, HMRC credentials) with one CIS
 * subcontractor verified at the standard rate, and a bill of it (HMRC's worked figures) to pay.
 */
const contractor = Effect.gen(function* () {
  const owner = yield* (yield* Users).create({
    email: Email.make(`race.${Date.now()}.${++tenants}@example.com`),
    name: "Racer"
  })
  const code = `taxmonth-${Date.now().toString(36)}-${tenants}`
  const { tenant } = yield* (yield* Tenants)
    .create({ code: TenantCode.make(code), name: "Lovelace Builders Ltd", email: null })
    .pipe(asUser(owner))
  const as = asMember(owner, code)
  const settings = yield* TenantSettings
  yield* settings.setCisDetails({ type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" }).pipe(as)
  yield* settings.setCisScheme(sampleCisScheme).pipe(as)
  yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(as)
  const created = yield* (yield* Contacts)
    .create({
      name: "John Smith Groundworks",
      isSupplier: true,
      isCisSubcontractor: true,
      cisDetails: {
        type: "SoleTrader",
        title: null,
        firstName: "John",
        secondName: null,
        lastName: "Smith",
        tradingName: null,
        utr: "2234567890",
        niNumber: null,
        companyNumber: null
      }
    })
    .pipe(as)
  // Verified as the tax authority's answer would leave it.
  const verification = new Verification({
    ...notVerified,
    status: "Verified",
    taxTreatment: "Net",
    verificationNumber: "V1234567890",
    verifiedAt: new Date(),
    source: "Hmrc"
  })
  yield* (yield* ContactRepo).update(new Contact({ ...created, verification }))
  const invoices = yield* PurchaseInvoices
  const bill = (number: string) =>
    invoices
      .create({
        contact: created.code,
        number,
        issueDate: "2026-01-01",
        dueDate: "2026-01-31",
        subtotal: 256700,
        vat: 0,
        materials: 36700
      })
      .pipe(as)
  const first = yield* bill("SG-0107")
  const second = yield* bill("SG-0108")
  const pay = (date: string, invoice = first) => invoices.addPayment(invoice.id, { date, amount: 100 }).pipe(as)
  /** A payment of the other bill: the first bill's row may be locked by a payment of its own. */
  const payOther = (date: string) => pay(date, second)
  const returns = yield* MonthlyReturns
  const fileFromPayments = (periodEnd: string) =>
    returns.file({ periodEnd, fromPayments: true, declarations: allDeclared }).pipe(as)
  return { as, tenantId: tenant.id, pay, payOther, fileFromPayments, returns } as const
})

/**
 * The invariant the lock keeps: when the month's return is filed, the payments dated in the
 * month are exactly the ones the return holds.
 */
const paymentsHeldByTheFiledReturn = (
  c: Effect.Effect.Success<typeof contractor>,
  periodEnd: string,
  paymentIds: ReadonlyArray<string>
) =>
  Effect.gen(function* () {
    const filed = yield* (yield* MonthlyReturnRepo).filedFor(c.tenantId, periodEnd)
    assert(Option.isSome(filed))
    const held = filed.value.lines.flatMap((l) => [...l.payments]).sort()
    expect(held).toEqual([...paymentIds].sort())
    const draft = yield* c.returns.draft(periodEnd).pipe(c.as)
    expect(draft.lines.flatMap((l) => l.payments.map((p) => p.payment)).sort()).toEqual(held)
  })

/** How many sessions of this database wait for an advisory lock (read on a connection of its own). */
const advisoryWaiters = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ waiting: number }>`
    SELECT count(*)::int AS waiting FROM pg_locks
    WHERE locktype = 'advisory' AND NOT granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
).pipe(
  Effect.map((rows) => rows[0]?.waiting ?? 0),
  Effect.orDie
)

/** Until `count` sessions wait for the lock (for up to 20 seconds, as the other connection gets there). */
const untilWaiting = (count: number) =>
  advisoryWaiters.pipe(
    Effect.filterOrFail(
      (n) => n >= count,
      (n) => new Error(`${n} of ${count} sessions wait for the lock`)
    ),
    Effect.retry(Schedule.spaced("10 millis").pipe(Schedule.upTo("20 seconds"))),
    Effect.orDie
  )

/**
 * In a transaction of its own (a connection of its own): takes the month's lock, says so, then
 * waits for `go` before it does `work` and commits.
 */
const holdingTheMonth = <A, E, R>(
  tenantId: Effect.Effect.Success<typeof contractor>["tenantId"],
  periodEnd: string,
  work: Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const held = yield* Deferred.make<void>()
    const go = yield* Deferred.make<void>()
    const transactor = yield* Transactor
    const repo = yield* MonthlyReturnRepo
    const fiber = yield* transactor
      .transaction(
        repo
          .holdTaxMonth(tenantId, periodEnd)
          .pipe(
            Effect.zipRight(Deferred.succeed(held, undefined)),
            Effect.zipRight(Deferred.await(go)),
            Effect.zipRight(work)
          )
      )
      .pipe(Effect.exit, Effect.fork)
    yield* Deferred.await(held)
    return { go: Deferred.succeed(go, undefined), done: Fiber.join(fiber) } as const
  })

describe.skipIf(!onPostgres)(
  "the tax month's lock on PostgreSQL (needs CISBOOK_TEST_DATABASE_URL: the embedded database has one connection)",
  () => {
    layer(UseCasesOverSql, { excludeTestServices: true, timeout: "120 seconds" })(
      "a payment racing its month's filing",
      (it) => {
        it.effect(
          "the filing holds the month: a payment dated in it waits for the lock, then sees the return filed and is refused 409; another month's payment does not wait",
          () =>
            Effect.gen(function* () {
              const c = yield* contractor
              const before = yield* c.pay("2026-05-20")
              const filing = yield* holdingTheMonth(c.tenantId, "2026-06-05", c.fileFromPayments("2026-06-05"))
              const payment = yield* Effect.fork(Effect.exit(c.pay("2026-06-05")))
              yield* untilWaiting(1)
              // Waiting, not refused nor recorded: the filing has the month.
              expect(Option.isNone(yield* Fiber.poll(payment))).toBe(true)
              // The month after is not held.
              expect((yield* c.payOther("2026-06-06")).date).toBe("2026-06-06")
              yield* filing.go
              const filed = yield* filing.done
              assert(Exit.isSuccess(filed))
              const refused = yield* Fiber.join(payment)
              assert(Exit.isFailure(refused))
              const error = Option.getOrUndefined(Cause.failureOption(refused.cause))
              assert(error instanceof Conflict)
              expect(error.detail).toMatch(
                /^date 2026-06-05 is in the tax month ending 2026-06-05, whose return is Submitted/
              )
              yield* paymentsHeldByTheFiledReturn(c, "2026-06-05", [before.id])
            })
        )

        it.effect(
          "the payment holds the month: the filing waits for the lock, then sees the payments changed and is refused 409; filed again, it holds the payment",
          () =>
            Effect.gen(function* () {
              const c = yield* contractor
              const before = yield* c.pay("2026-05-20")
              const paying = yield* holdingTheMonth(c.tenantId, "2026-06-05", c.pay("2026-06-05"))
              const filing = yield* Effect.fork(Effect.exit(c.fileFromPayments("2026-06-05")))
              yield* untilWaiting(1)
              expect(Option.isNone(yield* Fiber.poll(filing))).toBe(true)
              yield* paying.go
              const paid = yield* paying.done
              assert(Exit.isSuccess(paid))
              const refused = yield* Fiber.join(filing)
              assert(Exit.isFailure(refused))
              const error = Option.getOrUndefined(Cause.failureOption(refused.cause))
              assert(error instanceof Conflict)
              expect(error.detail).toMatch(/was recorded while its return was being filed/)
              expect(Option.isNone(yield* (yield* MonthlyReturnRepo).filedFor(c.tenantId, "2026-06-05"))).toBe(true)
              yield* c.fileFromPayments("2026-06-05")
              yield* paymentsHeldByTheFiledReturn(c, "2026-06-05", [before.id, paid.value.id])
            })
        )
      }
    )
  }
)

const ROUNDS = 8

layer(UseCasesOverSql, { excludeTestServices: true, timeout: "120 seconds" })(
  "payments racing their month's filing, released together",
  (it) => {
    it.effect(
      "the payment is refused 409, or the filing is, or the payment was in before the filing drafted the month: never a payment in a filed month that its return does not hold",
      () =>
        Effect.gen(function* () {
          const c = yield* contractor
          for (let round = 0; round < ROUNDS; round++) {
            // One tax month a round, January to August 2026, each paid once before the race.
            const periodEnd = `2026-${String(round + 1).padStart(2, "0")}-05`
            const paidBefore = yield* c.pay(periodEnd)
            // On PostgreSQL both wait behind the test's hold on the month, then race for it; the
            // embedded database has one connection, which runs them one after the other.
            const gate = onPostgres
              ? Option.some(yield* holdingTheMonth(c.tenantId, periodEnd, Effect.void))
              : Option.none()
            const racing = yield* Effect.fork(
              Effect.all([Effect.exit(c.pay(periodEnd)), Effect.exit(c.fileFromPayments(periodEnd))], {
                concurrency: 2
              })
            )
            if (Option.isSome(gate)) {
              yield* untilWaiting(2)
              yield* gate.value.go
              yield* gate.value.done
            }
            const [payment, filing] = yield* Fiber.join(racing)
            const tag = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
              Exit.isSuccess(exit)
                ? "ok"
                : Option.getOrElse(
                    Option.map(Cause.failureOption(exit.cause), (e) => e._tag),
                    () => "defect"
                  )
            // The payment refused, or the filing (the payments changed under it), or both made
            // when the payment was in before the filing drafted the month (one connection).
            expect(["Conflict/ok", "ok/Conflict", "ok/ok"]).toContain(`${tag(payment)}/${tag(filing)}`)
            if (Exit.isFailure(filing)) yield* c.fileFromPayments(periodEnd)
            const paid = Exit.isSuccess(payment) ? [paidBefore.id, payment.value.id] : [paidBefore.id]
            yield* paymentsHeldByTheFiledReturn(c, periodEnd, paid)
          }
        })
    )
  }
)
