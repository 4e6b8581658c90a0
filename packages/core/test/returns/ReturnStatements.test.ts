import { assert, describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Layer, TestClock } from "effect"
import { NotFound } from "../../src/Errors.js"
import { MailDispatch } from "../../src/mail/MailDispatch.js"
import { MailOutbox } from "../../src/mail/MailOutbox.js"
import { MonthlyReturns } from "../../src/returns/MonthlyReturns.js"
import { ReturnStatements } from "../../src/returns/ReturnStatements.js"
import { ReturnStatementRepo } from "../../src/returns/ReturnStatementRepo.js"
import { StatementDelivery } from "../../src/statements/StatementDelivery.js"
import { asMember } from "../TestApp.js"
import {
  acceptedReturn,
  aConnectedContractor,
  CONTRACTOR,
  juneLines,
  LEASE,
  START,
  statementsApp,
  statementsAppWith,
  SUBCONTRACTOR
} from "../statements/ConnectedContractor.js"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"

const decoded = (pdf: Uint8Array) => JSON.parse(new TextDecoder().decode(pdf)) as Record<string, unknown>

describe("ReturnStatements", () => {
  it.effect("lists one statement per line of an accepted return, each showing when it was mailed and delivered", () =>
    Effect.gen(function* () {
      const { bricks, con, smith } = yield* aConnectedContractor
      const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
      expect(accepted.status).toBe("Accepted")
      const statements = yield* ReturnStatements
      const list = statements.list(accepted.id).pipe(asMember(con, CONTRACTOR))
      const sending = (all: Effect.Effect.Success<typeof list>) =>
        all.map((s) => [s.line.contactCode, s.emailedTo, s.emailedAt, s.deliveredTo])

      const queued = yield* list
      expect(queued.map((s) => ({ periodEnd: s.periodEnd, line: s.line }))).toEqual(
        accepted.lines.map((line) => ({ periodEnd: "2026-06-05", line }))
      )
      // The mail is only queued, the delivery not made: neither shows yet.
      expect(sending(queued)).toEqual([
        [smith, null, null, null],
        [bricks, null, null, null]
      ])

      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* (yield* MailDispatch).sendDue(10, LEASE)).toBe(1)
      const mailedAt = new Date(START.getTime() + 30_000)
      expect(sending(yield* list)).toEqual([
        [smith, "smith@example.com", mailedAt, null],
        [bricks, null, null, null]
      ])

      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(1)
      expect(sending(yield* list)).toEqual([
        [smith, "smith@example.com", mailedAt, SUBCONTRACTOR],
        [bricks, null, null, null]
      ])
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect("lists none for a return not Accepted, sends nothing of it, and finds no return of another tenant", () =>
    Effect.gen(function* () {
      const { bricks, con, smith, sub } = yield* aConnectedContractor
      const statements = yield* ReturnStatements
      // The tax authority rejects a return whose deductions total £999.99.
      const rejected = yield* acceptedReturn(
        con,
        [{ contact: smith, grossAmount: 500000, materials: 0, deducted: 99999 }],
        "2026-04-05"
      )
      expect(rejected.status).toBe("Rejected")
      expect(yield* statements.list(rejected.id).pipe(asMember(con, CONTRACTOR))).toEqual([])
      expect(yield* Effect.flip(statements.pdf(rejected.id, smith).pipe(asMember(con, CONTRACTOR)))).toMatchObject({
        _tag: "NotFound",
        detail: "The return for the tax month ending 2026-04-05 is Rejected: only an accepted return has statements."
      })
      // A return still waiting for the tax authority has none either.
      const submitted = yield* (yield* MonthlyReturns)
        .file({ declarations: allDeclared, periodEnd: "2026-05-05", lines: juneLines(smith, bricks) })
        .pipe(asMember(con, CONTRACTOR))
      expect(yield* statements.list(submitted.id).pipe(asMember(con, CONTRACTOR))).toEqual([])
      // Nothing of either went out.
      expect(yield* (yield* MailDispatch).sendDue(10, LEASE)).toBe(0)
      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(0)

      const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
      assert((yield* Effect.flip(statements.list(accepted.id).pipe(asMember(sub, SUBCONTRACTOR)))) instanceof NotFound)
      assert(
        (yield* Effect.flip(statements.pdf(accepted.id, smith).pipe(asMember(sub, SUBCONTRACTOR)))) instanceof NotFound
      )
      assert((yield* Effect.flip(statements.list("not-a-uuid").pipe(asMember(con, CONTRACTOR)))) instanceof NotFound)
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect(
    "gives the PDF that was mailed, or draws one, with the employer reference; none for a contact not on it",
    () =>
      Effect.gen(function* () {
        const { bricks, con, smith } = yield* aConnectedContractor
        const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
        const statements = yield* ReturnStatements
        const [claimed] = yield* (yield* MailOutbox).claimDue(START, new Date(START.getTime() + 60_000), 10)
        const [attached] = claimed!.mail.attachments

        const mailed = yield* statements.pdf(accepted.id, smith.toLowerCase()).pipe(asMember(con, CONTRACTOR))
        expect(mailed.filename).toBe(`statement-${smith}-2026-06-05.pdf`)
        expect(attached?.filename).toBe(mailed.filename)
        expect(mailed.content).toEqual(attached?.content)

        const drawn = yield* statements.pdf(accepted.id, bricks).pipe(asMember(con, CONTRACTOR))
        expect(drawn.filename).toBe(`statement-${bricks}-2026-06-05.pdf`)
        expect(decoded(drawn.content)).toMatchObject({
          contractor: { name: "Lovelace Builders Ltd", utr: "8456789123", employerReference: "123/AB45678" },
          periodEnd: "2026-06-05",
          subcontractor: {
            code: bricks,
            name: "Bricks",
            taxTreatment: "Unmatched",
            verificationNumber: "V9876543210/A"
          },
          grossAmount: 50000,
          materials: 0,
          deducted: 15000
        })
        expect(decoded(mailed.content)).toMatchObject({
          contractor: { employerReference: "123/AB45678" },
          subcontractor: { code: smith, verificationNumber: null }
        })

        const missing = yield* Effect.flip(statements.pdf(accepted.id, "NOBODY").pipe(asMember(con, CONTRACTOR)))
        expect(missing).toMatchObject({
          _tag: "NotFound",
          detail: "NOBODY is not a subcontractor on the return for the tax month ending 2026-06-05."
        })
      }).pipe(Effect.provide(statementsApp))
  )

  it.effect("records an acceptance, its mail and its deliveries together, or none of them", () =>
    Effect.gen(function* () {
      const { bricks, con, smith } = yield* aConnectedContractor
      const failed = yield* Effect.exit(acceptedReturn(con, juneLines(smith, bricks)))
      assert(Exit.isFailure(failed))
      expect(Cause.pretty(failed.cause)).toContain("The disk is full")
      const [filed] = yield* (yield* MonthlyReturns).list().pipe(asMember(con, CONTRACTOR))
      expect(filed?.status).toBe("Submitted")
      expect(yield* (yield* MailOutbox).claimDue(START, new Date(START.getTime() + 60_000), 10)).toEqual([])
      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(0)
    }).pipe(
      Effect.provide(
        statementsAppWith(
          Layer.effect(
            ReturnStatementRepo,
            Effect.map(ReturnStatementRepo, (repo) => ({ ...repo, insert: () => Effect.die("The disk is full") }))
          )
        )
      )
    )
  )
})
