import { CryptoLive } from "@cisbook/adapters/system/CryptoLive"
import { IdGeneratorLive } from "@cisbook/adapters/system/IdGeneratorLive"
import { ReturnFiling } from "@cisbook/core/returns/ReturnFiling"
import { StatementDelivery } from "@cisbook/core/statements/StatementDelivery"
import { WebhookDispatch } from "@cisbook/core/webhooks/WebhookDispatch"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { startWebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { assert, expect, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer, TestClock } from "effect"
import { Webhook } from "standardwebhooks"
import { contractorTenant } from "./ContractorTenant.js"
import { e2e, ownerOfNewTenant, raw, sqlTestPorts } from "./E2E.js"
import { pdfLines } from "./PdfLines.js"

/** 10 June 2026, 10:00: the tax month ending 5 June is over and its return due by the 19th. */
const TEN_JUNE = Date.parse("2026-06-10T10:00:00.000Z")

/**
 * The whole service over PGlite (or PostgreSQL), its clock Effect's TestClock, set to 10 June
 * before the server starts (set later, the TestClock would run every periodic wake-up of the
 * server since 1970). The test drives the filer, the statement deliverer and the webhook
 * dispatcher a pass at a time, as their workers would.
 */
const App = e2e(
  sqlTestPorts(
    { allowPrivateTargets: true },
    undefined,
    {},
    false,
    Layer.mergeAll(ClockOfEffect, IdGeneratorLive, CryptoLive)
  )
).pipe(Layer.provide(Layer.effectDiscard(TestClock.setTime(TEN_JUNE))))

const LEASE = Duration.minutes(1)
/** How long the local Transaction Engine asks a filer to wait before it polls. */
const ENGINE_POLL = Duration.seconds(1)

const fileDue = Effect.flatMap(ReturnFiling, (filing) => filing.fileDue(100, LEASE)).pipe(
  Effect.provide(ReturnFiling.Default)
)
const deliverDue = Effect.flatMap(StatementDelivery, (delivery) => delivery.deliverDue(100, LEASE)).pipe(
  Effect.provide(StatementDelivery.Default)
)
const dispatchDue = Effect.flatMap(WebhookDispatch, (dispatch) => dispatch.dispatchDue(100, LEASE)).pipe(
  Effect.provide(WebhookDispatch.Default)
)

// HMRC's worked figures (CISR15100): £2,567 gross of which £367 materials, £2,200 liable to deduction.
const worked = { issueDate: "2026-05-01", dueDate: "2026-05-31", subtotal: 256700, vat: 0, materials: 36700 }

layer(App, { timeout: "120 seconds" })("a contractor's CIS month, as docs/cis-month.md walks it", (it) => {
  it.scoped(
    "bills and payments drafted, filed with declarations, accepted, its statement delivered once into the connected subcontractor's tenant and reconciled there, the month filed and then closed to payments",
    () =>
      Effect.gen(function* () {
        expect(yield* Clock.currentTimeMillis).toBe(TEN_JUNE)
        const con = yield* contractorTenant("cismonth")
        const tenant = con.tenant
        yield* con.api.settings.updateCisScheme({
          path: { tenant },
          payload: {
            employerReference: "123/AB45678",
            accountsOfficeReference: "123PW12345678",
            registeredFrom: "2026-04-06"
          }
        })

        // John Smith keeps his books in cisbook: his tenant accepts the contractor's invitation with its customer.
        const sub = yield* ownerOfNewTenant("cismonthsub")
        const customer = yield* sub.api.contacts.createContact({
          path: { tenant: sub.tenant },
          payload: { name: "Lovelace Builders", isCustomer: true }
        })
        const invited = yield* con.api.connections.createConnection({
          path: { tenant },
          payload: { contact: "JOHNSMIT", direction: "In", email: sub.user.email }
        })
        const connected = yield* sub.api.connections.setConnectionCounterparty({
          path: { tenant: sub.tenant, connection: invited.id },
          payload: { contact: customer.code }
        })
        expect(connected.status).toBe("Connected")
        const receiver = yield* startWebhookReceiver
        const hook = yield* sub.api.webhooks.createWebhook({
          path: { tenant: sub.tenant },
          payload: { url: `${receiver.url}/cis`, eventTypes: ["cis-statement.received"] }
        })

        // The bills: JOHNSMIT (Net, 20 %) and ACMEROOF (Unmatched, 30 %), each of HMRC's worked figures.
        const bill = (contact: string, number: string, figures = worked) =>
          con.api.purchaseInvoices.createPurchaseInvoice({ path: { tenant }, payload: { contact, number, ...figures } })
        const pay = (invoice: string, date: string, amount: number) =>
          con.api.purchaseInvoices.createPurchaseInvoicePayment({
            path: { tenant, invoice },
            payload: { date, amount }
          })
        const john = yield* bill("JOHNSMIT", "SG-0107")
        const acme = yield* bill("ACMEROOF", "AR-77")
        expect([john.taxTreatment, john.cisDeduction, john.amountDue]).toEqual(["Net", 44000, 212700])
        expect([acme.taxTreatment, acme.cisDeduction, acme.amountDue]).toEqual(["Unmatched", 66000, 190700])
        // Another bill of John's, paid either side of the month: on 5 May (the month before) and 6 June (the month after).
        const extra = yield* bill("JOHNSMIT", "SG-0108", { ...worked, subtotal: 100000, materials: 40000 })

        // John's bill paid in halves on the month's first day and its last; Acme's at once.
        const johnFirst = yield* pay(john.id, "2026-05-06", 106350)
        const johnLast = yield* pay(john.id, "2026-06-05", 106350)
        const acmeAll = yield* pay(acme.id, "2026-05-20", 190700)
        yield* pay(extra.id, "2026-05-05", 44000)
        yield* pay(extra.id, "2026-06-06", 44000)
        expect([johnFirst.grossAmount, johnFirst.materials, johnFirst.deducted]).toEqual([128350, 18350, 22000])
        expect([johnLast.grossAmount, johnLast.materials, johnLast.deducted]).toEqual([128350, 18350, 22000])

        // The draft: one line each, by name, with HMRC's figures; pounds on the wire.
        const draft = yield* raw(con.key, "GET", `/tenants/${tenant}/monthly-returns/draft?periodEnd=2026-06-05`)
        expect(draft.status).toBe(200)
        expect(draft.body).toEqual({
          periodEnd: "2026-06-05",
          dueDate: "2026-06-19",
          nilReturn: false,
          totals: { grossAmount: 5134, materials: 734, deducted: 1100 },
          lines: [
            {
              contact: "ACMEROOF",
              name: "Acme Roofing Ltd",
              utr: "6456789012",
              verificationNumber: "V9876543210/A",
              taxTreatment: "Unmatched",
              grossAmount: 2567,
              materials: 367,
              deducted: 660,
              payments: [
                {
                  purchaseInvoice: acme.id,
                  invoiceNumber: "AR-77",
                  payment: acmeAll.id,
                  date: "2026-05-20",
                  amount: 1907,
                  grossAmount: 2567,
                  materials: 367,
                  deducted: 660
                }
              ]
            },
            {
              contact: "JOHNSMIT",
              name: "John Smith Groundworks",
              utr: "2234567890",
              verificationNumber: "V1234567890",
              taxTreatment: "Net",
              grossAmount: 2567,
              materials: 367,
              deducted: 440,
              payments: [johnFirst, johnLast].map((p) => ({
                purchaseInvoice: john.id,
                invoiceNumber: "SG-0107",
                payment: p.id,
                date: p.date,
                amount: 1063.5,
                grossAmount: 1283.5,
                materials: 183.5,
                deducted: 220
              }))
            }
          ],
          warnings: []
        })

        // Filed as drafted, with the contractor's declarations; accepted by the engine at its first poll.
        const filed = yield* con.api.monthlyReturns.createMonthlyReturn({
          path: { tenant },
          payload: { periodEnd: "2026-06-05", fromPayments: true, declarations: allDeclared }
        })
        expect(filed.status).toBe("Submitted")
        expect(filed.lines.map((l) => [l.contact, l.grossAmount, l.materials, l.deducted, l.payments])).toEqual([
          ["ACMEROOF", 256700, 36700, 66000, [acmeAll.id]],
          ["JOHNSMIT", 256700, 36700, 44000, [johnFirst.id, johnLast.id]]
        ])
        expect(filed.declarations).toMatchObject(allDeclared)
        const getReturn = con.api.monthlyReturns.getMonthlyReturn({ path: { tenant, id: filed.id } })
        expect(yield* fileDue).toBe(1)
        expect((yield* getReturn).status).toBe("Submitted")
        yield* TestClock.adjust(ENGINE_POLL)
        expect(yield* fileDue).toBe(1)
        const accepted = yield* getReturn
        expect(accepted.status).toBe("Accepted")
        expect(accepted.acceptedAt?.toISOString()).toBe("2026-06-10T10:00:01.000Z")
        expect(accepted.hmrcReceipt?.correlationId).toEqual(expect.any(String))

        // The statements listed on the return, and John's PDF.
        const statementsPath = `/tenants/${tenant}/monthly-returns/${filed.id}/statements`
        const beforeDelivery = yield* con.api.monthlyReturns.listReturnStatements({ path: { tenant, id: filed.id } })
        expect(beforeDelivery.map((s) => [s.contact, s.grossAmount, s.materials, s.deducted, s.deliveredTo])).toEqual([
          ["ACMEROOF", 256700, 36700, 66000, null],
          ["JOHNSMIT", 256700, 36700, 44000, null]
        ])
        const johnPdf = con.api.monthlyReturns.getReturnStatementPdf({
          path: { tenant, id: filed.id, contact: "JOHNSMIT" }
        })
        const drawn = pdfLines(yield* johnPdf)
        for (const expected of [
          "Lovelace Builders Ltd",
          "Tax month ending 5 June 2026",
          "John Smith Groundworks",
          "Gross amount paid (excluding VAT) | £2,567.00",
          "Less cost of materials | £367.00",
          "Amount deducted (20%, standard rate) | £440.00"
        ])
          expect(drawn).toContain(expected)

        // Delivered into John's tenant once, however often the deliverer and the dispatcher pass.
        expect(yield* deliverDue).toBe(1)
        expect(yield* deliverDue).toBe(0)
        expect(yield* dispatchDue).toBe(1)
        expect(yield* dispatchDue).toBe(0)
        const listed = yield* raw(con.key, "GET", statementsPath)
        expect((listed.body as Array<Record<string, unknown>>).map((s) => [s.contact, s.deliveredTo])).toEqual([
          ["ACMEROOF", null],
          ["JOHNSMIT", sub.tenant]
        ])
        const received = yield* sub.api.cisStatements.listCisStatements({ path: { tenant: sub.tenant }, urlParams: {} })
        expect(received).toHaveLength(1)
        const [statement] = received
        assert(statement !== undefined)
        const statementPath = `/tenants/${sub.tenant}/cis-statements/${statement.id}`
        const got = yield* raw(sub.key, "GET", statementPath)
        expect(got.body).toEqual({
          id: statement.id,
          periodEnd: "2026-06-05",
          contractor: { tenant, name: "Lovelace Builders Ltd", employerReference: "123/AB45678" },
          contact: customer.code,
          grossAmount: 2567,
          materials: 367,
          deducted: 440,
          taxTreatment: "Net",
          verificationNumber: "V1234567890",
          receivedAt: "2026-06-10T10:00:01.000Z",
          reconciliation: { payments: 0, deducted: 0, difference: 440, status: "NoPayments" }
        })
        const subPdf = yield* sub.api.cisStatements.getCisStatementPdf({
          path: { tenant: sub.tenant, id: statement.id }
        })
        // The contractor's PDF is now the one delivered.
        expect(Buffer.from(subPdf).equals(Buffer.from(yield* johnPdf))).toBe(true)

        // The cis-statement.received event, signed, at John's endpoint: once.
        const events = yield* receiver.received
        expect(events).toHaveLength(1)
        const [delivered] = events
        assert(delivered !== undefined)
        // Signed with the endpoint's secret (checked here: the receiver's check wants a timestamp of the real time).
        const timestamp = new Date(Number(delivered.headers["webhook-timestamp"]) * 1000)
        expect(timestamp.toISOString()).toBe("2026-06-10T10:00:01.000Z")
        expect(delivered.headers["webhook-signature"]?.split(" ")).toContain(
          new Webhook(hook.secret).sign(delivered.headers["webhook-id"]!, timestamp, delivered.body)
        )
        const event = JSON.parse(delivered.body) as { type: string; data: unknown }
        expect(event).toMatchObject({ type: "cis-statement.received", data: got.body })

        // John's own books: his invoice to Lovelace Builders and the payments he received.
        const invoice = yield* sub.api.salesInvoices.createSalesInvoice({
          path: { tenant: sub.tenant },
          payload: {
            contact: customer.code,
            issueDate: "2026-05-01",
            dueDate: "2026-05-31",
            subtotal: 256700,
            vat: 0,
            cisDeduction: 44000
          }
        })
        const paidOn = (date: string) =>
          sub.api.salesInvoices.createSalesInvoicePayment({
            path: { tenant: sub.tenant, invoice: invoice.id },
            payload: { date, amount: 106350 }
          })
        const reconciliation = Effect.map(
          sub.api.cisStatements.getCisStatement({ path: { tenant: sub.tenant, id: statement.id } }),
          (s) => s.reconciliation
        )
        // The first half alone: the contractor reported more than John's books carry.
        yield* paidOn("2026-05-06")
        expect(yield* reconciliation).toEqual({ payments: 1, deducted: 22000, difference: 22000, status: "Different" })
        // The second half, on the month's last day: the books match.
        yield* paidOn("2026-06-05")
        expect(yield* reconciliation).toEqual({ payments: 2, deducted: 44000, difference: 0, status: "Matched" })

        // The obligations: May overdue (nothing filed), June filed on the 10th, July due.
        const obligations = yield* raw(
          con.key,
          "GET",
          `/tenants/${tenant}/monthly-returns/obligations?from=2026-05-05&to=2026-07-05`
        )
        expect(obligations.body).toEqual([
          {
            periodEnd: "2026-05-05",
            dueDate: "2026-05-19",
            status: "Overdue",
            monthlyReturn: null,
            filedOn: null,
            penalty: 100
          },
          {
            periodEnd: "2026-06-05",
            dueDate: "2026-06-19",
            status: "Filed",
            monthlyReturn: filed.id,
            filedOn: "2026-06-10",
            penalty: 0
          },
          {
            periodEnd: "2026-07-05",
            dueDate: "2026-07-19",
            status: "Due",
            monthlyReturn: null,
            filedOn: null,
            penalty: 0
          }
        ])

        // The filed month is closed to payments: 409 naming the date; the next month is open.
        const more = yield* bill("JOHNSMIT", "SG-0109", { ...worked, subtotal: 50000, materials: 0 })
        const payments = `/tenants/${tenant}/purchase-invoices/${more.id}/payments`
        const refused = yield* raw(con.key, "POST", payments, { date: "2026-05-25", amount: 100 })
        expect(refused).toMatchObject({ status: 409, contentType: expect.stringMatching(/problem\+json/) })
        expect(refused.body?.detail).toMatch(/^date 2026-05-25 is in the tax month ending 2026-06-05/)
        expect((yield* raw(con.key, "POST", payments, { date: "2026-06-06", amount: 100 })).status).toBe(201)
        const after = yield* con.api.purchaseInvoices.getPurchaseInvoice({ path: { tenant, invoice: more.id } })
        expect(after.payments?.map((p) => p.date)).toEqual(["2026-06-06"])
        const draftAgain = yield* con.api.monthlyReturns.getMonthlyReturnDraft({
          path: { tenant },
          urlParams: { periodEnd: "2026-06-05" }
        })
        expect(draftAgain.totals).toEqual({ grossAmount: 513400, materials: 73400, deducted: 110000 })
      })
  )
})
