import { smtpMailTransport } from "@cisbook/adapters/mail/SmtpMailTransport"
import { MailDispatch } from "@cisbook/core/mail/MailDispatch"
import { ReturnFiling } from "@cisbook/core/returns/ReturnFiling"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { type SmtpReceiver, startSmtpReceiver } from "@cisbook/testkit/SmtpReceiver"
import { startWebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { mailSender } from "../src/workers/MailSender.js"
import { statementDeliverer } from "../src/workers/StatementDeliverer.js"
import { webhookDispatcher } from "../src/workers/WebhookDispatcher.js"
import { sampleScheme } from "./CisSchemeSetting.js"
import { contractorTenant } from "./ContractorTenant.js"
import { e2e, ownerOfNewTenant, raw, sqlTestPorts } from "./E2E.js"
import { pdfLines } from "./PdfLines.js"
import { eventually } from "./WorkerTestApp.js"

const fast = { pollInterval: Duration.millis(20), concurrency: 4, lease: Duration.seconds(60) }

/** The whole service with its statement deliverer and webhook dispatcher (receivers are on loopback). */
const App = Layer.mergeAll(statementDeliverer(fast), webhookDispatcher(fast)).pipe(
  Layer.provideMerge(e2e(sqlTestPorts({ allowPrivateTargets: true })))
)

/** Runs the server's mail sender against the SMTP server while the test's scope lives. */
const startMailSender = (smtp: SmtpReceiver) =>
  Effect.gen(function* () {
    const scope = yield* Effect.acquireRelease(Scope.make(), (s) => Scope.close(s, Exit.void))
    yield* Layer.buildWithScope(
      mailSender(fast).pipe(
        Layer.provide(MailDispatch.Default),
        Layer.provide(smtpMailTransport({ url: smtp.url, from: "mail@cisbook.example", connections: 1 }))
      ),
      scope
    )
  })

type Contractor = Effect.Effect.Success<ReturnType<typeof contractorTenant>>

/**
 * The contractor's return for the tax month ending `periodEnd`, with JOHNSMIT (Net) and ACMEROOF
 * (Unmatched) paid in it: the one place this test builds a return's request.
 */
const fileReturn = (con: Contractor, periodEnd: string) =>
  con.api.monthlyReturns.createMonthlyReturn({
    path: { tenant: con.tenant },
    payload: {
      periodEnd,
      lines: [
        { contact: "JOHNSMIT", grossAmount: 100000, materials: 40000, deducted: 12000 },
        { contact: "ACMEROOF", grossAmount: 50050, materials: 50, deducted: 15000 }
      ],
      declarations: allDeclared
    }
  })

/** Files what is due with the sandbox tax authority until the return has its answer. */
const answered = (con: Contractor, id: string) =>
  eventually(
    Effect.zipRight(
      Effect.flatMap(ReturnFiling, (filing) => filing.fileDue(100, Duration.minutes(1))).pipe(
        Effect.provide(ReturnFiling.Default)
      ),
      con.api.monthlyReturns.getMonthlyReturn({ path: { tenant: con.tenant, id } })
    ),
    (r) => r.status !== "Submitted"
  )

/** A file as a client downloads it: the status, the headers that name it, and its bytes. */
const download = (key: string, url: string) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeader("x-api-key", key)))
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.arrayBuffer, (body) => ({
        status: response.status,
        contentType: response.headers["content-type"],
        disposition: response.headers["content-disposition"],
        bytes: new Uint8Array(body)
      }))
    )
  )

layer(App, { excludeTestServices: true, timeout: "120 seconds" })(
  "payment and deduction statements over HTTP",
  (it) => {
    it.scoped(
      "an accepted return's statements are mailed, listed, downloadable, and delivered once into the connected subcontractor's tenant, which reconciles them with its own payments",
      () =>
        Effect.gen(function* () {
          const smtp = yield* startSmtpReceiver
          yield* startMailSender(smtp)
          const con = yield* contractorTenant("stmtcon")
          yield* con.api.emailSettings.updateEmailSettings({
            path: { tenant: con.tenant },
            payload: { signature: "Ada Lovelace\nLovelace Builders Ltd", autoEmailStatements: true }
          })
          const sub = yield* ownerOfNewTenant("stmtsub")
          const customer = yield* sub.api.contacts.createContact({
            path: { tenant: sub.tenant },
            payload: { name: "Lovelace Builders", isCustomer: true }
          })

          // The contractor invites its subcontractor JOHNSMIT's own tenant, which accepts with its customer.
          const invited = yield* con.api.connections.createConnection({
            path: { tenant: con.tenant },
            payload: { contact: "JOHNSMIT", direction: "In", email: sub.user.email }
          })
          yield* sub.api.connections.setConnectionCounterparty({
            path: { tenant: sub.tenant, connection: invited.id },
            payload: { contact: customer.code }
          })

          // The subcontractor listens for its statements.
          const receiver = yield* startWebhookReceiver
          const hook = yield* sub.api.webhooks.createWebhook({
            path: { tenant: sub.tenant },
            payload: { url: `${receiver.url}/cis`, eventTypes: ["cis-statement.received"] }
          })
          yield* receiver.trust(hook.secret)

          // The subcontractor's own books: its invoice to the contractor, with the CIS deduction it expects.
          const invoice = yield* sub.api.salesInvoices.createSalesInvoice({
            path: { tenant: sub.tenant },
            payload: {
              contact: customer.code,
              issueDate: "2026-05-10",
              dueDate: "2026-06-09",
              subtotal: 100000,
              vat: 0,
              cisDeduction: 12000
            }
          })

          const filed = yield* fileReturn(con, "2026-06-05")
          expect((yield* answered(con, filed.id)).status).toBe("Accepted")
          const statementsPath = `/tenants/${con.tenant}/monthly-returns/${filed.id}/statements`

          // Delivered once, with its event; and both statements mailed.
          const received = yield* eventually(
            sub.api.cisStatements.listCisStatements({ path: { tenant: sub.tenant }, urlParams: {} }),
            (all) => all.length > 0
          )
          expect(received).toHaveLength(1)
          const listedByContractor = yield* eventually(raw(con.key, "GET", statementsPath), (res) =>
            (res.body as Array<Record<string, unknown>>).every((s) => s.emailedAt !== null)
          )
          expect(listedByContractor.status).toBe(200)
          expect(listedByContractor.body).toEqual([
            {
              contact: "JOHNSMIT",
              name: "John Smith Groundworks",
              utr: "2234567890",
              verificationNumber: "V1234567890",
              taxTreatment: "Net",
              periodEnd: "2026-06-05",
              grossAmount: 1000,
              materials: 400,
              deducted: 120,
              emailedTo: "john@smith-groundworks.example",
              emailedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
              deliveredTo: sub.tenant
            },
            {
              contact: "ACMEROOF",
              name: "Acme Roofing Ltd",
              utr: "6456789012",
              verificationNumber: "V9876543210/A",
              taxTreatment: "Unmatched",
              periodEnd: "2026-06-05",
              grossAmount: 500.5,
              materials: 0.5,
              deducted: 150,
              emailedTo: "accounts@acme-roofing.example",
              emailedAt: expect.stringMatching(/Z$/),
              deliveredTo: null
            }
          ])
          const viaSdk = yield* con.api.monthlyReturns.listReturnStatements({
            path: { tenant: con.tenant, id: filed.id }
          })
          expect(viaSdk.map((s) => [s.contact, s.grossAmount, s.deducted, s.emailedAt instanceof Date])).toEqual([
            ["JOHNSMIT", 100000, 12000, true],
            ["ACMEROOF", 50050, 15000, true]
          ])

          // What the subcontractor received: the contractor, its own contact for it, the line's amounts.
          const [statement] = received
          assert(statement !== undefined)
          const statementPath = `/tenants/${sub.tenant}/cis-statements/${statement.id}`
          const got = yield* raw(sub.key, "GET", statementPath)
          expect(got.status).toBe(200)
          expect(got.body).toEqual({
            id: statement.id,
            periodEnd: "2026-06-05",
            contractor: {
              tenant: con.tenant,
              name: "Lovelace Builders Ltd",
              employerReference: sampleScheme.employerReference
            },
            contact: customer.code,
            grossAmount: 1000,
            materials: 400,
            deducted: 120,
            taxTreatment: "Net",
            verificationNumber: "V1234567890",
            receivedAt: expect.stringMatching(/Z$/),
            reconciliation: { payments: 0, deducted: 0, difference: 120, status: "NoPayments" }
          })

          // The cis-statement.received webhook: signed, its data the statement as the API showed it then.
          const [event] = yield* receiver.waitFor(1)
          assert(event !== undefined)
          expect(event.verified).toBe(true)
          const delivered = JSON.parse(event.body) as { type: string; data: unknown }
          expect(delivered.type).toBe("cis-statement.received")
          expect(delivered.data).toEqual(got.body)

          // Reconciled when read: half paid in the month is Different, all of it Matched.
          const pay = (date: string) =>
            sub.api.salesInvoices.createSalesInvoicePayment({
              path: { tenant: sub.tenant, invoice: invoice.id },
              payload: { date, amount: 44000 }
            })
          yield* pay("2026-05-20")
          expect((yield* raw(sub.key, "GET", statementPath)).body?.reconciliation).toEqual({
            payments: 1,
            deducted: 60,
            difference: 60,
            status: "Different"
          })
          yield* pay("2026-06-05")
          const matched = yield* sub.api.cisStatements.getCisStatement({
            path: { tenant: sub.tenant, id: statement.id }
          })
          expect(matched.reconciliation).toEqual({ payments: 2, deducted: 12000, difference: 0, status: "Matched" })

          // The PDF: the same file for both tenants, carrying what HMRC requires.
          const subPdf = yield* download(sub.key, `${statementPath}/pdf`)
          expect(subPdf).toMatchObject({
            status: 200,
            contentType: "application/pdf",
            disposition: `attachment; filename="statement-${con.tenant}-2026-06-05.pdf"`
          })
          const lines = pdfLines(subPdf.bytes)
          for (const expected of [
            "Lovelace Builders Ltd",
            `Employer's reference: ${sampleScheme.employerReference}`,
            "Tax month ending 5 June 2026",
            "John Smith Groundworks",
            "UTR: 2234567890",
            "Gross amount paid (excluding VAT) | £1,000.00",
            "Less cost of materials | £400.00",
            "Amount deducted (20%, standard rate) | £120.00"
          ])
            expect(lines).toContain(expected)
          const conPdf = yield* download(con.key, `${statementsPath}/johnsmit/pdf`)
          expect(conPdf).toMatchObject({
            status: 200,
            contentType: "application/pdf",
            disposition: 'attachment; filename="statement-JOHNSMIT-2026-06-05.pdf"'
          })
          expect(Buffer.from(conPdf.bytes).equals(Buffer.from(subPdf.bytes))).toBe(true)
          const mailed = (yield* smtp.received).find((m) => m.envelopeTo.includes("john@smith-groundworks.example"))
          expect(
            mailed?.parsed.attachments.map((a) => [a.filename, a.content.equals(Buffer.from(subPdf.bytes))])
          ).toEqual([["statement-JOHNSMIT-2026-06-05.pdf", true]])
          const viaSdkPdf = yield* sub.api.cisStatements.getCisStatementPdf({
            path: { tenant: sub.tenant, id: statement.id }
          })
          expect(Buffer.from(viaSdkPdf).equals(Buffer.from(subPdf.bytes))).toBe(true)
          const unmatched = pdfLines(
            yield* con.api.monthlyReturns.getReturnStatementPdf({
              path: { tenant: con.tenant, id: filed.id, contact: "ACMEROOF" }
            })
          )
          expect(unmatched).toContain("Verification number: V9876543210/A")

          // Still one statement and one event, the deliverer having run all along.
          expect(
            yield* sub.api.cisStatements.listCisStatements({ path: { tenant: sub.tenant }, urlParams: {} })
          ).toHaveLength(1)
          expect(yield* receiver.received).toHaveLength(1)
        })
    )

    it.effect("finds statements by periodEnd, names a bad bound, and keeps each tenant's statements to itself", () =>
      Effect.gen(function* () {
        const con = yield* contractorTenant("stmtbounds")
        const sub = yield* ownerOfNewTenant("stmtboundsub")
        const customer = yield* sub.api.contacts.createContact({
          path: { tenant: sub.tenant },
          payload: { name: "Lovelace Builders", isCustomer: true }
        })
        const invited = yield* con.api.connections.createConnection({
          path: { tenant: con.tenant },
          payload: { contact: "JOHNSMIT", direction: "In", email: sub.user.email }
        })
        yield* sub.api.connections.setConnectionCounterparty({
          path: { tenant: sub.tenant, connection: invited.id },
          payload: { contact: customer.code }
        })
        const filed = yield* fileReturn(con, "2026-06-05")
        expect((yield* answered(con, filed.id)).status).toBe("Accepted")
        const [statement] = yield* eventually(
          sub.api.cisStatements.listCisStatements({ path: { tenant: sub.tenant }, urlParams: {} }),
          (all) => all.length > 0
        )
        assert(statement !== undefined)

        const list = (query: string) => raw(sub.key, "GET", `/tenants/${sub.tenant}/cis-statements${query}`)
        const ids = (res: { body?: unknown }) => (res.body as Array<{ id: string }>).map((s) => s.id)
        expect(ids(yield* list("?from=2026-06-05&to=2026-06-05"))).toEqual([statement.id])
        expect(ids(yield* list("?from=2026-07-05"))).toEqual([])
        expect(ids(yield* list("?to=2026-05-05"))).toEqual([])
        for (const [query, members] of [
          ["?from=June", ["from"]],
          ["?to=2026-13-05", ["to"]],
          ["?from=nope&to=never", ["from", "to"]],
          ["?from=2026-07-05&to=2026-06-05", ["from"]]
        ] as const) {
          const bad = yield* list(query)
          expect(bad, query).toMatchObject({ status: 400, contentType: expect.stringMatching(/problem\+json/) })
          expect(Object.keys(bad.body?.errors ?? {}).sort(), query).toEqual(members)
        }

        // A third tenant sees none of it: 404 under its own tenant, 403 under the others'.
        const third = yield* ownerOfNewTenant("stmtthird")
        const statementsPath = `/tenants/${con.tenant}/monthly-returns/${filed.id}/statements`
        for (const path of [
          `/tenants/${third.tenant}/cis-statements/${statement.id}`,
          `/tenants/${third.tenant}/cis-statements/${statement.id}/pdf`,
          `/tenants/${third.tenant}/cis-statements/not-a-uuid`,
          `/tenants/${third.tenant}/monthly-returns/${filed.id}/statements`,
          `/tenants/${third.tenant}/monthly-returns/${filed.id}/statements/JOHNSMIT/pdf`
        ])
          expect((yield* raw(third.key, "GET", path)).status, path).toBe(404)
        expect((yield* raw(third.key, "GET", `/tenants/${third.tenant}/cis-statements`)).body).toEqual([])
        for (const path of [`/tenants/${sub.tenant}/cis-statements/${statement.id}`, statementsPath])
          expect((yield* raw(third.key, "GET", path)).status, path).toBe(403)
        // The contractor has the statement as its return's, not as one it received.
        expect((yield* raw(con.key, "GET", `/tenants/${con.tenant}/cis-statements/${statement.id}`)).status).toBe(404)

        // No statement for a contact not on the return, nor for a return not Accepted.
        const bloggs = yield* raw(con.key, "GET", `${statementsPath}/BLOGGSSO/pdf`)
        expect(bloggs).toMatchObject({ status: 404, contentType: expect.stringMatching(/problem\+json/) })
        const may = yield* fileReturn(con, "2026-05-05")
        expect(yield* raw(con.key, "GET", `/tenants/${con.tenant}/monthly-returns/${may.id}/statements`)).toMatchObject(
          {
            status: 200,
            body: []
          }
        )
        const notAccepted = yield* con.api.monthlyReturns
          .getReturnStatementPdf({ path: { tenant: con.tenant, id: may.id, contact: "JOHNSMIT" } })
          .pipe(Effect.flip)
        expect(notAccepted._tag).toBe("NotFound")
      })
    )

    it.effect(
      "lists a subcontractor's statements through the Promise client, which rejects with the typed errors",
      () =>
        Effect.gen(function* () {
          const sub = yield* ownerOfNewTenant("stmtpromise")
          const { address } = yield* HttpServer.HttpServer
          assert(address._tag === "TcpAddress")
          const baseUrl = `http://127.0.0.1:${address.port}`
          const cisbook = yield* Effect.promise(() =>
            createPromiseClient({
              baseUrl,
              credentials: { apiKey: sub.key }
            })
          )
          const none = yield* Effect.promise(() =>
            cisbook.cisStatements.listCisStatements({ path: { tenant: sub.tenant }, urlParams: { from: "2026-04-05" } })
          )
          expect(none).toEqual([])
          const refused = yield* Effect.promise(() =>
            cisbook.cisStatements
              .listCisStatements({ path: { tenant: sub.tenant }, urlParams: { from: "2026-06-05", to: "2026-05-05" } })
              .then(
                () => undefined,
                (error: unknown) => error
              )
          )
          expect(refused).toMatchObject({ _tag: "ValidationFailed", errors: { from: [expect.any(String)] } })
          const missing = yield* Effect.promise(() =>
            cisbook.cisStatements.getCisStatementPdf({ path: { tenant: sub.tenant, id: crypto.randomUUID() } }).then(
              () => undefined,
              (error: unknown) => error
            )
          )
          expect(missing).toMatchObject({ _tag: "NotFound" })
        })
    )
  }
)
