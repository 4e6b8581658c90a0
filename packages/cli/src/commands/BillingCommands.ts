import { Email } from "@cisbook/core/Email"
import { CalendarDate, ukCalendarDate } from "@cisbook/core/CalendarDate"
import { formatMoney } from "@cisbook/core/mail/MailFormat"
import { BillingInvoices } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { BillingProfiles } from "@cisbook/core/billing/mandates/BillingProfiles"
import { BillingRun, type RunProgress } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import {
  MAX_PROVIDER_EVENT_LIST,
  ProviderEventReceiving
} from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { Users } from "@cisbook/core/users/Users"
import { decodeInput } from "@cisbook/core/Validation"
import { asUser } from "@cisbook/core/users/ActingAs"
import { Command, Options } from "@effect/cli"
import { Console, Data, Effect, Option, Schema } from "effect"
import { admin } from "../Admin.js"
import {
  BillingInvoicesLive,
  BillingProfilesLive,
  BillingRunLive,
  MandatesLive,
  ProviderEventReceivingLive,
  UsersLive
} from "../AdminUseCases.js"
import { progressBar } from "../ProgressBar.js"
import { table } from "../Table.js"

/** What support sees of a user's mandate: as last stored, without asking the provider. */
const mandate = Command.make(
  "mandate",
  { email: Options.text("email").pipe(Options.withDescription("The user's email address")) },
  ({ email }) =>
    admin(
      [UsersLive, BillingProfilesLive, MandatesLive],
      Effect.gen(function* () {
        const user = yield* (yield* Users).byEmail(yield* decodeInput(Email)(email))
        const profile = yield* (yield* BillingProfiles).get().pipe(asUser(user))
        const latest = yield* (yield* Mandates).latestOf(user)
        const billedTo = Option.match(profile.address, {
          onNone: () => "(no billing address)",
          onSome: (a) => `${a.companyName}, ${a.billingEmail}, ${a.postcode} ${a.country}`
        })
        if (Option.isNone(latest)) {
          return yield* Console.log(`${user.email}: mandate NotStarted. Billing address: ${billedTo}`)
        }
        const m = latest.value
        yield* Console.log(
          table(
            ["STATUS", "REFERENCE", "ACCOUNT HOLDER", "BANK", "ACCOUNT", "NEXT CHARGE", "REDIRECT FLOW", "STARTED"],
            [
              [
                m.status,
                m.reference ?? "",
                m.accountHolderName ?? "",
                m.bankName ?? "",
                m.accountNumberEnding === null ? "" : `******${m.accountNumberEnding}`,
                m.nextPossibleChargeDate ?? "",
                m.redirectFlowId ?? "",
                m.createdAt.toISOString()
              ]
            ]
          )
        )
        yield* Console.log(`Billing address: ${billedTo}`)
      })
    )
).pipe(Command.withDescription("A user's latest direct debit mandate and billing address, as last stored"))

/** A run that left invoices unfinished: said on stderr, exit code 1, so that a scheduler notices. */
class RunIncomplete extends Data.TaggedError("RunIncomplete")<{ readonly message: string }> {}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`

/** Below this many users the run prints no progress bar: its lines come at once. */
const PROGRESS_FROM = 50

/** The bar on stderr (stdout carries the invoices), redrawn in place on a terminal. */
const showProgress = ({ done, phase, total }: RunProgress) =>
  total < PROGRESS_FROM
    ? Effect.void
    : process.stderr.isTTY
      ? Effect.sync(() =>
          process.stderr.write(`\r${phase.padEnd(10)} ${progressBar(done, total)}${done >= total ? "\n" : ""}`)
        )
      : done === total || done % Math.ceil(total / 10) === 0
        ? Console.error(`${phase.padEnd(10)} ${progressBar(done, total)}`)
        : Effect.void

const run = Command.make(
  "run",
  {
    date: Options.text("date").pipe(
      Options.withDescription(
        "The run's date, YYYY-MM-DD (default: today in the UK): the invoices' issue date, and the day the 3 days after a failed payment are counted to"
      ),
      Options.optional
    )
  },
  ({ date }) =>
    admin(
      [BillingRunLive],
      Effect.gen(function* () {
        const issueDate = Option.isSome(date)
          ? (yield* decodeInput(Schema.Struct({ date: CalendarDate }))({ date: date.value })).date
          : ukCalendarDate(new Date())
        const report = yield* (yield* BillingRun).run(issueDate, showProgress)
        for (const { billedTo, invoice } of report.finished) {
          yield* Console.log(
            [
              invoice.number,
              invoice.issueDate,
              billedTo,
              formatMoney(invoice.total),
              invoice.paymentStatus,
              invoice.paymentReference ?? ""
            ]
              .join("  ")
              .trimEnd()
          )
        }
        const total = report.finished.reduce((sum, { invoice }) => sum + invoice.total, 0)
        const collecting = report.finished.filter(({ invoice }) => invoice.paymentReference !== null).length
        yield* Console.log(
          `Issued ${plural(report.issued, "invoice")} dated ${issueDate}; finished ${report.finished.length} (${formatMoney(total)} including VAT): ${collecting} collecting by direct debit, ${report.finished.length - collecting} waiting for a mandate.`
        )
        for (const { invoice, outcome, reason } of report.collectedAgain) {
          yield* Console.log(
            [invoice.number, formatMoney(invoice.total), outcome, invoice.paymentReference ?? "", `(${reason})`]
              .filter((cell) => cell !== "")
              .join("  ")
          )
        }
        if (report.collectedAgain.length > 0) {
          const count = (outcome: string) => report.collectedAgain.filter((c) => c.outcome === outcome).length
          yield* Console.log(
            `Collected again ${plural(report.collectedAgain.length, "failed invoice")}: ${count("Retried")} retried, ${count("PutForward")} put forward to a newer mandate, ${count("WaitingForMandate")} waiting for a new mandate, ${count("Unreached")} left for the next run.`
          )
        }
        const unreached = report.collectedAgain.filter((c) => c.outcome === "Unreached").length
        if (unreached > 0) {
          yield* Console.error(
            `${plural(unreached, "failed invoice")} could not be collected again (the direct debit provider unavailable, or a fault: see each line and the log); the next run tries again.`
          )
        }
        if (report.unfinished > 0) {
          return yield* new RunIncomplete({
            message: `${plural(report.unfinished, "invoice")} could not be finished (see the log); run again to finish them. Nothing is billed twice.`
          })
        }
      })
    )
).pipe(
  Command.withDescription(
    "Bills every user with accepted returns not yet invoiced: one invoice each, its PDF, and its direct debit payment; then collects again every failed payment: a retry when its mandate can still collect and 3 days have passed since the failure by the run's --date (at most 3 retries), else it waits for a new mandate. Safe to run again: nothing is billed twice."
  )
)

const invoices = Command.make(
  "invoices",
  { email: Options.text("email").pipe(Options.withDescription("The user's email address")) },
  ({ email }) =>
    admin(
      [UsersLive, BillingInvoicesLive],
      Effect.gen(function* () {
        const user = yield* (yield* Users).byEmail(yield* decodeInput(Email)(email))
        const list = yield* (yield* BillingInvoices).listAsStored(user)
        if (list.length === 0) return yield* Console.log(`${user.email}: no billing invoices.`)
        yield* Console.log(
          table(
            ["NUMBER", "ISSUED", "PERIOD", "SUBTOTAL", "VAT", "TOTAL", "PAYMENT", "REFERENCE", "PDF"],
            list.map((i) => [
              i.number,
              i.issueDate,
              `${i.periodStart} to ${i.periodEnd}`,
              formatMoney(i.subtotal),
              formatMoney(i.vat),
              formatMoney(i.total),
              i.paymentStatus,
              i.paymentReference ?? "",
              i.hasPdf ? "yes" : "no"
            ])
          )
        )
      })
    )
).pipe(Command.withDescription("A user's billing invoices, latest first, as last stored"))

const events = Command.make(
  "events",
  {
    limit: Options.integer("limit").pipe(
      Options.withDefault(50),
      Options.withDescription(`At most this many (1-${MAX_PROVIDER_EVENT_LIST})`)
    )
  },
  ({ limit }) =>
    admin(
      [ProviderEventReceivingLive],
      Effect.gen(function* () {
        const list = yield* (yield* ProviderEventReceiving).list(limit)
        if (list.length === 0) return yield* Console.log("No provider events.")
        yield* Console.log(
          table(
            ["EVENT", "RESOURCE TYPE", "ACTION", "RESOURCE", "RECEIVED", "HANDLED"],
            list.map((e) => [e.id, e.resourceType, e.action, e.resourceId ?? "", e.receivedAt.toISOString(), e.handled])
          )
        )
        yield* Console.log(`${plural(list.length, "event")}, newest first.`)
      })
    )
).pipe(Command.withDescription("The direct debit provider's events (GoCardless webhooks) received, newest first"))

export const BillingCommand = Command.make("billing").pipe(
  Command.withDescription("Billing of the service's users"),
  Command.withSubcommands([mandate, run, invoices, events])
)
