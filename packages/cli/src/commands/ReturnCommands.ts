import { formatMoney } from "@cisbook/core/mail/MailFormat"
import { returnTotals } from "@cisbook/core/returns/MonthlyReturn"
import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { admin } from "../Admin.js"
import { asSupport } from "@cisbook/core/tenants/ActingFor"
import { MonthlyReturnsLive, ObligationsLive, TenantsLive } from "../AdminUseCases.js"
import { Obligations } from "@cisbook/core/returns/Obligations"
import { table } from "../Table.js"

const list = Command.make(
  "list",
  { tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")) },
  ({ tenant }) =>
    admin(
      [TenantsLive, MonthlyReturnsLive],
      Effect.gen(function* () {
        const returns = yield* (yield* MonthlyReturns).list().pipe(asSupport(tenant))
        if (returns.length === 0) return yield* Console.log(`${tenant} has filed no monthly return.`)
        yield* Console.log(
          table(
            [
              "ID",
              "PERIOD END",
              "STATUS",
              "SUBCONTRACTORS",
              "DEDUCTED",
              "SUBMITTED",
              "ANSWER",
              "HMRC CORRELATION ID",
              "IRMARK"
            ],
            returns.map((r) => [
              r.id,
              r.periodEnd,
              r.status,
              r.nilReturn ? `none: nil return${r.inactive ? ", inactive" : ""}` : String(r.lines.length),
              formatMoney(returnTotals(r.lines).deducted),
              r.submittedAt.toISOString(),
              r.acceptedAt?.toISOString() ?? r.rejectionReason ?? r.heldReason ?? "",
              // HMRC's receipt of an accepted return: its correlation id and the IRmark sent.
              r.hmrcReceipt?.correlationId ?? "",
              r.hmrcReceipt?.irmark ?? ""
            ])
          )
        )
        yield* Console.log(`${returns.length} return${returns.length === 1 ? "" : "s"}, latest tax month first.`)
      })
    )
).pipe(Command.withDescription("List a tenant's monthly returns (CIS300), latest tax month first"))

const draft = Command.make(
  "draft",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")),
    period: Options.text("period").pipe(Options.withDescription("The tax month, by its last day: YYYY-MM-05"))
  },
  ({ period, tenant }) =>
    admin(
      [TenantsLive, MonthlyReturnsLive],
      Effect.gen(function* () {
        const drafted = yield* (yield* MonthlyReturns).draft(period).pipe(asSupport(tenant))
        yield* Console.log(
          `Draft return of ${tenant} for the tax month ending ${drafted.periodEnd}, due ${drafted.dueDate}.`
        )
        if (drafted.nilReturn) {
          yield* Console.log("No payment to a CIS subcontractor in the month: a nil return.")
        } else {
          const money = (line: { grossAmount: number; materials: number; deducted: number }) => [
            formatMoney(line.grossAmount),
            formatMoney(line.materials),
            formatMoney(line.deducted)
          ]
          yield* Console.log(
            table(
              ["CONTACT", "NAME", "UTR", "TREATMENT", "PAYMENTS", "GROSS", "MATERIALS", "DEDUCTED"],
              [
                ...drafted.lines.map((line) => [
                  line.contactCode,
                  line.name,
                  line.utr ?? "",
                  line.taxTreatment ?? "not verified",
                  String(line.payments.length),
                  ...money(line)
                ]),
                [
                  "TOTAL",
                  "",
                  "",
                  "",
                  String(drafted.lines.reduce((n, l) => n + l.payments.length, 0)),
                  ...money(drafted.totals)
                ]
              ]
            )
          )
        }
        if (drafted.warnings.length === 0) return yield* Console.log("No warnings.")
        yield* Console.log(
          table(
            ["CONTACT", "WARNING", "WHAT TO CHECK"],
            drafted.warnings.map((w) => [w.contactCode, w.code, w.message])
          )
        )
      })
    )
).pipe(
  Command.withDescription(
    "Show the return a tenant's payments to its CIS subcontractors draft for a tax month: its lines, totals and warnings"
  )
)

const release = Command.make(
  "release",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")),
    id: Options.text("id").pipe(Options.withDescription("The id of the return (see `returns list`)"))
  },
  ({ id, tenant }) =>
    admin(
      [TenantsLive, MonthlyReturnsLive],
      Effect.gen(function* () {
        const released = yield* (yield* MonthlyReturns).release(id).pipe(asSupport(tenant))
        yield* Console.log(
          `The return ${released.id} for the tax month ending ${released.periodEnd} is Submitted again: the return filer sends it to HMRC afresh.`
        )
      })
    )
).pipe(
  Command.withDescription(
    "Send again a return Held because HMRC's answer to it is unknown (HMRC no longer knew its correlation id, and its data request could not settle it). First check HMRC's online service: release it only if HMRC has not filed it, or it is filed twice. Any other return is refused."
  )
)

const obligations = Command.make(
  "obligations",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")),
    from: Options.text("from").pipe(
      Options.optional,
      Options.withDescription("The first tax month's end to show, YYYY-MM-05 (default: eleven before the current one)")
    ),
    to: Options.text("to").pipe(
      Options.optional,
      Options.withDescription("The last tax month's end to show, YYYY-MM-05 (default: the current one)")
    )
  },
  ({ from, tenant, to }) =>
    admin(
      [TenantsLive, ObligationsLive],
      Effect.gen(function* () {
        const months = yield* (yield* Obligations)
          .list({ from: Option.getOrUndefined(from), to: Option.getOrUndefined(to) })
          .pipe(asSupport(tenant))
        if (months.length === 0)
          return yield* Console.log(
            `${tenant} has no tax months to file for here: its CIS scheme registration is not set, or began after them.`
          )
        yield* Console.log(
          table(
            ["PERIOD END", "DUE", "STATUS", "FILED ON", "PENALTY", "RETURN"],
            months.map((m) => [
              m.periodEnd,
              m.dueDate,
              m.status,
              m.filedOn ?? "",
              formatMoney(m.penalty),
              m.monthlyReturn ?? ""
            ])
          )
        )
        const late = months.filter((m) => m.status === "Overdue").length
        const penalties = months.reduce((sum, m) => sum + m.penalty, 0)
        yield* Console.log(
          `${months.length} tax month${months.length === 1 ? "" : "s"}, oldest first; ${late} overdue; penalties ${formatMoney(penalties)} in all.`
        )
      })
    )
).pipe(
  Command.withDescription(
    "Each tax month's return of a tenant since its CIS registration: Filed, FiledLate, Due, Overdue or Inactive, with HMRC's late-filing penalty as of when it was filed (or today)"
  )
)

export const ReturnsCommand = Command.make("returns").pipe(
  Command.withDescription("Monthly returns (CIS300) of a tenant"),
  Command.withSubcommands([list, draft, obligations, release])
)
