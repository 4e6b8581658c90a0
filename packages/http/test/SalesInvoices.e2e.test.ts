import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

type Method = "GET" | "POST" | "PUT" | "DELETE"

const raw = (
  key: string | undefined,
  method: Method,
  url: string,
  options: { readonly body?: unknown; readonly accept?: string } = {}
) =>
  Effect.flatMap(HttpClient.HttpClient, (http) => {
    let request = HttpClientRequest.make(method)(url)
    if (key !== undefined) request = HttpClientRequest.setHeader(request, "x-api-key", key)
    if (options.accept !== undefined) request = HttpClientRequest.setHeader(request, "accept", options.accept)
    if (options.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.body)
    return http.execute(request)
  }).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({
        status: response.status,
        contentType: response.headers["content-type"] ?? "",
        disposition: response.headers["content-disposition"],
        text,
        body:
          text !== "" && !(response.headers["content-type"] ?? "").startsWith("text/csv")
            ? (JSON.parse(text) as any)
            : undefined
      }))
    )
  )

/** A user with a client, owning a new tenant with a customer ACME and a supplier JOHNSMIT. */
const owner = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: `${name} Ltd` } })
    yield* user.api.contacts.createContact({ path: { tenant }, payload: { name: "Acme", isCustomer: true } })
    yield* user.api.contacts.createContact({
      path: { tenant },
      payload: { name: "John Smith", isSupplier: true, isCisSubcontractor: true }
    })
    return { ...user, tenant }
  })

const invoice = {
  contact: "acme",
  issueDate: "2026-04-06",
  dueDate: "2026-05-06",
  subtotal: 1000.5,
  vat: 200.1,
  cisDeduction: 200
}

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("sales invoices over HTTP", (it) => {
  describe("create, get and list", () => {
    it.effect(
      "answers 201 with the SalesInvoiceDto in pounds, numbered INV-000001, and gets it with its payments",
      () =>
        Effect.gen(function* () {
          const { api, key, tenant } = yield* owner("sicreate")
          const res = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices`, {
            body: { ...invoice, reference: "  PO 7781 " }
          })
          expect(res.status).toBe(201)
          expect(res.contentType).toMatch(/^application\/json/)
          expect(res.body).toEqual({
            id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
            number: "INV-000001",
            contact: "ACME",
            issueDate: "2026-04-06",
            dueDate: "2026-05-06",
            reference: "PO 7781",
            subtotal: 1000.5,
            vat: 200.1,
            total: 1200.6,
            cisDeduction: 200,
            amountPaid: 0,
            amountDue: 1000.6,
            status: "Open",
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          })
          // Payments come only with the single-invoice GET.
          const got = yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices/${res.body.id}`)
          expect(got).toMatchObject({ status: 200, body: { ...res.body, payments: [] } })
          // The SDK speaks pence.
          const viaSdk = yield* api.salesInvoices.getSalesInvoice({ path: { tenant, invoice: res.body.id } })
          expect(viaSdk).toMatchObject({ subtotal: 100050, vat: 20010, total: 120060, amountDue: 100060, payments: [] })
        })
    )

    it.effect("numbers per tenant, continues above an explicit INV number, and refuses a number taken with 409", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("sinumber")
        const create = (number?: string) =>
          api.salesInvoices.createSalesInvoice({
            path: { tenant },
            payload: { ...invoice, subtotal: 100, vat: 0, cisDeduction: 0, ...(number ? { number } : {}) }
          })
        expect((yield* create()).number).toBe("INV-000001")
        expect((yield* create("INV-000010")).number).toBe("INV-000010")
        expect((yield* create()).number).toBe("INV-000011")
        const spaced = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices`, {
          body: { ...invoice, number: "  Special 7 " }
        })
        expect(spaced.body.number).toBe("Special 7")
        expect((yield* create()).number).toBe("INV-000012")
        const taken = yield* Effect.flip(create("INV-000011"))
        assert(taken._tag === "Conflict")
        expect(taken.detail).toContain("INV-000011")
        // Concurrent creates get distinct numbers, in sequence.
        const racing = yield* Effect.all(
          Array.from({ length: 6 }, () => create()),
          { concurrency: 6 }
        )
        expect(racing.map((i) => i.number).sort()).toEqual([
          "INV-000013",
          "INV-000014",
          "INV-000015",
          "INV-000016",
          "INV-000017",
          "INV-000018"
        ])
        // Another tenant starts at 1, and may use the same explicit number.
        const other = yield* owner("sinumber2")
        const theirs = yield* other.api.salesInvoices.createSalesInvoice({
          path: { tenant: other.tenant },
          payload: invoiceInPence
        })
        expect(theirs.number).toBe("INV-000001")
      })
    )

    it.effect("reports every invalid member, refuses a contact that is not a customer, and creates nothing", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("siinvalid")
        const url = `/tenants/${tenant}/sales-invoices`
        const bad = yield* raw(key, "POST", url, {
          body: {
            contact: "acme",
            issueDate: "2026-02-30",
            dueDate: "soon",
            subtotal: 10.005,
            vat: -1,
            cisDeduction: "5"
          }
        })
        expect(bad.status).toBe(400)
        expect(bad.contentType).toMatch(/^application\/problem\+json/)
        expect(Object.keys(bad.body.errors).sort()).toEqual(["cisDeduction", "dueDate", "issueDate", "subtotal", "vat"])
        expect(bad.body.errors.subtotal).toEqual([
          "Must be an amount in pounds, 0 or more, with at most 2 decimal places (for example 1250.5)"
        ])
        const rules = yield* raw(key, "POST", url, {
          body: { ...invoice, dueDate: "2026-04-05", subtotal: 100, cisDeduction: 100.01 }
        })
        expect(rules.status).toBe(400)
        expect(rules.body.errors).toEqual({
          dueDate: ["Must be on or after issueDate"],
          cisDeduction: ["Must not be more than subtotal: the deduction is taken from the amount net of VAT"]
        })
        const supplier = yield* raw(key, "POST", url, { body: { ...invoice, contact: "JOHNSMIT" } })
        expect(supplier).toMatchObject({
          status: 400,
          body: { errors: { contact: [expect.stringContaining("not a customer")] } }
        })
        const unknown = yield* raw(key, "POST", url, { body: { ...invoice, contact: "NOBODY" } })
        expect(unknown).toMatchObject({
          status: 400,
          body: { errors: { contact: [expect.stringContaining("no contact")] } }
        })
        const missing = yield* raw(key, "POST", url, { body: {} })
        expect(Object.keys(missing.body.errors).sort()).toEqual(["contact", "dueDate", "issueDate", "subtotal", "vat"])
        expect((yield* api.salesInvoices.listSalesInvoices({ path: { tenant }, urlParams: {} })).totalCount).toBe(0)
        // Nothing was numbered either: the next invoice is the first.
        expect(
          (yield* api.salesInvoices.createSalesInvoice({ path: { tenant }, payload: invoiceInPence })).number
        ).toBe("INV-000001")
      })
    )

    it.effect("lists newest issue date first, without payments, paged and by contact", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("silist")
        yield* api.contacts.createContact({ path: { tenant }, payload: { name: "Beta", isCustomer: true } })
        for (const [contact, issueDate] of [
          ["ACME", "2026-01-10"],
          ["BETA", "2026-03-01"],
          ["ACME", "2026-02-15"],
          ["ACME", "2026-03-01"]
        ] as const) {
          yield* api.salesInvoices.createSalesInvoice({
            path: { tenant },
            payload: { ...invoiceInPence, contact, issueDate, dueDate: "2026-06-30" }
          })
        }
        const all = yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices`)
        expect(all.body).toMatchObject({ totalCount: 4, offset: 0, limit: 10 })
        expect(all.body.items.map((i: any) => i.number)).toEqual([
          "INV-000004",
          "INV-000002",
          "INV-000003",
          "INV-000001"
        ])
        expect(all.body.items[0]).not.toHaveProperty("payments")
        const page = yield* api.salesInvoices.listSalesInvoices({
          path: { tenant },
          urlParams: { contact: "acme", offset: 1, limit: 1 }
        })
        expect(page).toMatchObject({ totalCount: 3, offset: 1, limit: 1, items: [{ number: "INV-000003" }] })
        expect(
          yield* api.salesInvoices.listSalesInvoices({ path: { tenant }, urlParams: { limit: 500 } })
        ).toMatchObject({
          limit: 50
        })
        const none = yield* api.salesInvoices.listSalesInvoices({ path: { tenant }, urlParams: { contact: "NOBODY" } })
        expect(none).toEqual({ items: [], totalCount: 0, offset: 0, limit: 10 })
        const badPaging = yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices?limit=0&offset=-1`)
        expect(badPaging.status).toBe(400)
        expect(Object.keys(badPaging.body.errors).sort()).toEqual(["limit", "offset"])
      })
    )
  })

  describe("payments", () => {
    it.effect(
      "records payments with their share of the deduction, refuses over-payment, and marks the invoice Paid",
      () =>
        Effect.gen(function* () {
          const { api, key, tenant } = yield* owner("sipay")
          // Payable: 1200 − 200 = 1000.
          const created = yield* api.salesInvoices.createSalesInvoice({
            path: { tenant },
            payload: { ...invoiceInPence, subtotal: 100000, vat: 20000, cisDeduction: 20000 }
          })
          const url = `/tenants/${tenant}/sales-invoices/${created.id}/payments`
          const first = yield* raw(key, "POST", url, {
            body: { date: "2026-05-01", amount: 333.33, reference: "BACS 1" }
          })
          expect(first).toMatchObject({
            status: 201,
            body: { id: expect.any(String), date: "2026-05-01", amount: 333.33, reference: "BACS 1" }
          })
          const over = yield* raw(key, "POST", url, { body: { date: "2026-05-02", amount: 666.68 } })
          expect(over).toMatchObject({
            status: 400,
            body: { errors: { amount: ["Must be at most the 666.67 due on INV-000001"] } }
          })
          const zero = yield* raw(key, "POST", url, { body: { date: "2026-05-02", amount: 0 } })
          expect(zero).toMatchObject({ status: 400, body: { errors: { amount: ["A payment must be more than 0"] } } })
          const fraction = yield* raw(key, "POST", url, { body: { date: "2026-05-02", amount: 1.001 } })
          expect(fraction.status).toBe(400)
          yield* api.salesInvoices.createSalesInvoicePayment({
            path: { tenant, invoice: created.id },
            payload: { date: "2026-05-03", amount: 33333 }
          })
          const open = yield* api.salesInvoices.getSalesInvoice({ path: { tenant, invoice: created.id } })
          expect(open).toMatchObject({ amountPaid: 66666, amountDue: 33334, status: "Open" })
          yield* api.salesInvoices.createSalesInvoicePayment({
            path: { tenant, invoice: created.id },
            payload: { date: "2026-05-02", amount: 33334 }
          })
          const paid = yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices/${created.id}`)
          expect(paid.body).toMatchObject({ amountPaid: 1000, amountDue: 0, status: "Paid" })
          expect(paid.body.payments.map((p: any) => [p.date, p.amount])).toEqual([
            ["2026-05-01", 333.33],
            ["2026-05-03", 333.33],
            ["2026-05-02", 333.34]
          ])
          const more = yield* raw(key, "POST", url, { body: { date: "2026-05-04", amount: 0.01 } })
          expect(more).toMatchObject({ status: 400, body: { detail: "INV-000001 is paid: nothing is due on it." } })
          // The report gives each payment its share; the last one takes what is left.
          const report = yield* api.salesInvoices.listSalesInvoicePayments({
            path: { tenant },
            urlParams: { from: "2026-05-01", to: "2026-05-31" }
          })
          expect(report.map((p) => [p.paymentDate, p.amount, p.cisDeduction])).toEqual([
            ["2026-05-01", 33333, 6667],
            ["2026-05-02", 33334, 6666],
            ["2026-05-03", 33333, 6667]
          ])
        })
    )

    it.effect("refuses concurrent payments that together would pay more than is due", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("sirace")
        const created = yield* api.salesInvoices.createSalesInvoice({
          path: { tenant },
          payload: { ...invoiceInPence, subtotal: 10000, vat: 0, cisDeduction: 0 }
        })
        const results = yield* Effect.all(
          Array.from({ length: 5 }, () =>
            Effect.either(
              api.salesInvoices.createSalesInvoicePayment({
                path: { tenant, invoice: created.id },
                payload: { date: "2026-05-01", amount: 3000 }
              })
            )
          ),
          { concurrency: 5 }
        )
        expect(results.filter((r) => r._tag === "Right")).toHaveLength(3)
        const after = yield* api.salesInvoices.getSalesInvoice({ path: { tenant, invoice: created.id } })
        expect(after).toMatchObject({ amountPaid: 9000, amountDue: 1000 })
      })
    )

    it.effect("is 404 for an unknown or malformed invoice id", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("si404")
        for (const id of ["not-a-uuid", "01890a5d-ac96-774b-bcce-b302099a8057"]) {
          expect((yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices/${id}`)).status).toBe(404)
          const pay = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices/${id}/payments`, {
            body: { date: "2026-05-01", amount: 1 }
          })
          expect(pay.status).toBe(404)
          expect(pay.contentType).toMatch(/^application\/problem\+json/)
        }
      })
    )
  })

  describe("contacts with invoices", () => {
    it.effect("is 409 for removing the customer role or deleting the contact, and changes nothing", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("siinuse")
        yield* api.salesInvoices.createSalesInvoice({ path: { tenant }, payload: invoiceInPence })
        const before = yield* api.contacts.getContact({ path: { tenant, code: "ACME" } })
        const noCustomer = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/acme`, {
          body: { name: "Acme", isCustomer: false, isSupplier: false, isCisSubcontractor: false, vatRegistered: false }
        })
        expect(noCustomer).toMatchObject({ status: 409, body: { title: "Conflict" } })
        expect(noCustomer.body.detail).toContain("sales invoices")
        const deleted = yield* raw(key, "DELETE", `/tenants/${tenant}/contacts/acme`)
        expect(deleted).toMatchObject({
          status: 409,
          body: { detail: "ACME has sales invoices, so it cannot be deleted." }
        })
        expect(yield* api.contacts.getContact({ path: { tenant, code: "ACME" } })).toEqual(before)
        // The supplier role was never what the invoice needed.
        const renamed = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/acme`, {
          body: {
            name: "Acme Two",
            isCustomer: true,
            isSupplier: false,
            isCisSubcontractor: false,
            vatRegistered: false
          }
        })
        expect(renamed.status).toBe(200)
      })
    )
  })

  describe("payments report", () => {
    it.effect("lists the payments dated from and to inclusive, oldest first, with invoice and contact", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("sireport")
        const first = yield* api.salesInvoices.createSalesInvoice({
          path: { tenant },
          payload: { ...invoiceInPence, reference: "PO 1", subtotal: 100000, vat: 0, cisDeduction: 20000 }
        })
        const second = yield* api.salesInvoices.createSalesInvoice({
          path: { tenant },
          payload: { ...invoiceInPence, issueDate: "2026-04-20", dueDate: "2026-05-20", subtotal: 5000, vat: 1000 }
        })
        const pay = (invoice: string, date: string, amount: number) =>
          api.salesInvoices.createSalesInvoicePayment({ path: { tenant, invoice }, payload: { date, amount } })
        const p1 = yield* pay(first.id, "2026-04-30", 10000)
        const p2 = yield* pay(second.id, "2026-05-01", 1000)
        const p3 = yield* pay(first.id, "2026-05-01", 20000)
        const p4 = yield* pay(first.id, "2026-05-31", 50000)
        yield* pay(second.id, "2026-06-01", 1000)
        const res = yield* raw(
          key,
          "GET",
          `/tenants/${tenant}/sales-invoices/payments?from=2026-05-01T00:00:00Z&to=2026-05-31T23:59:59.999Z`
        )
        expect(res.status).toBe(200)
        expect(res.contentType).toMatch(/^application\/json/)
        expect(res.body).toEqual([
          ...[p2, p3]
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((p) => expect.objectContaining({ paymentId: p.id, paymentDate: "2026-05-01" })),
          {
            paymentId: p4.id,
            paymentDate: "2026-05-31",
            amount: 500,
            cisDeduction: 125,
            invoiceId: first.id,
            invoiceNumber: "INV-000001",
            invoiceDate: "2026-04-06",
            invoiceDueDate: "2026-05-06",
            invoiceReference: "PO 1",
            contactCode: "ACME",
            contactName: "Acme"
          }
        ])
        // Dates only, and a bound with an offset counts by its UTC date (2026-04-30 here).
        const widened = yield* api.salesInvoices.listSalesInvoicePayments({
          path: { tenant },
          urlParams: { from: "2026-05-01T01:00:00+02:00", to: "2026-05-01" }
        })
        expect(widened.map((p) => p.paymentId).sort()).toEqual([p1.id, p2.id, p3.id].sort())
        expect(widened[0]?.paymentId).toBe(p1.id)
        const empty = yield* api.salesInvoices.listSalesInvoicePayments({
          path: { tenant },
          urlParams: { from: "2027-01-01", to: "2027-12-31" }
        })
        expect(empty).toEqual([])
      })
    )

    it.effect("answers CSV for Accept: text/csv, with formula cells neutralised", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("sicsv")
        yield* api.contacts.createContact({
          path: { tenant },
          payload: { name: '=HYPERLINK("http://x.example","Click")', isCustomer: true }
        })
        const evil = yield* api.salesInvoices.createSalesInvoice({
          path: { tenant },
          payload: { ...invoiceInPence, contact: "HYPERLIN", number: "+1-2", reference: '@SUM(A1:A9), "quoted"' }
        })
        const plain = yield* api.salesInvoices.createSalesInvoice({
          path: { tenant },
          payload: { ...invoiceInPence, reference: "-minus" }
        })
        const a = yield* api.salesInvoices.createSalesInvoicePayment({
          path: { tenant, invoice: evil.id },
          payload: { date: "2026-05-01", amount: 1005 }
        })
        const b = yield* api.salesInvoices.createSalesInvoicePayment({
          path: { tenant, invoice: plain.id },
          payload: { date: "2026-05-02", amount: 12000 }
        })
        const res = yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices/payments?from=2026-05-01&to=2026-05-02`, {
          accept: "text/csv"
        })
        expect(res.status).toBe(200)
        expect(res.contentType).toMatch(/^text\/csv/)
        expect(res.disposition).toBe('attachment; filename="sales-invoice-payments-2026-05-01-to-2026-05-02.csv"')
        expect(res.text).toBe(
          [
            "paymentId,paymentDate,amount,cisDeduction,invoiceId,invoiceNumber,invoiceDate,invoiceDueDate,invoiceReference,contactCode,contactName",
            `${a.id},2026-05-01,10.05,0.00,${evil.id},"'+1-2",2026-04-06,2026-05-06,"'@SUM(A1:A9), ""quoted""",HYPERLIN,"'=HYPERLINK(""http://x.example"",""Click"")"`,
            `${b.id},2026-05-02,120.00,0.00,${plain.id},INV-000001,2026-04-06,2026-05-06,"'-minus",ACME,Acme`,
            ""
          ].join("\r\n")
        )
        // The SDK gives the same text; a browser-like Accept that prefers JSON gets JSON.
        expect(
          yield* api.salesInvoices.salesInvoicePaymentsCsv({
            path: { tenant },
            urlParams: { from: "2026-05-01", to: "2026-05-02" }
          })
        ).toBe(res.text)
        const json = yield* raw(
          key,
          "GET",
          `/tenants/${tenant}/sales-invoices/payments?from=2026-05-01&to=2026-05-02`,
          {
            accept: "application/json, text/csv;q=0.5"
          }
        )
        expect(json.contentType).toMatch(/^application\/json/)
        expect(json.body).toHaveLength(2)
      })
    )

    it.effect("is 400 for a missing or malformed bound, or from after to, naming each", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("sibounds")
        const report = (query: string) => raw(key, "GET", `/tenants/${tenant}/sales-invoices/payments${query}`)
        const missing = yield* report("")
        expect(missing).toMatchObject({ status: 400, body: { title: "One or more validation errors occurred." } })
        expect(Object.keys(missing.body.errors).sort()).toEqual(["from", "to"])
        const malformed = yield* report("?from=yesterday&to=2026-13-01T00:00:00Z")
        expect(malformed.status).toBe(400)
        expect(malformed.body.errors).toEqual({
          from: ["Must be a date-time such as 2026-04-06T00:00:00Z (or a date such as 2026-04-06)"],
          to: ["Must be a date-time such as 2026-04-06T00:00:00Z (or a date such as 2026-04-06)"]
        })
        const reversed = yield* report("?from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z")
        expect(reversed).toMatchObject({ status: 400, body: { errors: { from: ["Must not be after to"] } } })
        expect(reversed.contentType).toMatch(/^application\/problem\+json/)
        const csvBad = yield* raw(key, "GET", `/tenants/${tenant}/sales-invoices/payments?from=x&to=y`, {
          accept: "text/csv"
        })
        expect(csvBad.status).toBe(400)
        expect(csvBad.contentType).toMatch(/^application\/problem\+json/)
      })
    )
  })

  describe("Promise client", () => {
    it.effect("offers the report as JSON and as the CSV text, over fetch", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("sipromise")
        const created = yield* api.salesInvoices.createSalesInvoice({ path: { tenant }, payload: invoiceInPence })
        yield* api.salesInvoices.createSalesInvoicePayment({
          path: { tenant, invoice: created.id },
          payload: { date: "2026-05-01", amount: 2500 }
        })
        const server = yield* HttpServer.HttpServer
        assert(server.address._tag === "TcpAddress")
        const baseUrl = `http://127.0.0.1:${server.address.port}`
        const cisbook = yield* Effect.promise(() => createPromiseClient({ baseUrl, credentials: { apiKey: key } }))
        const request = { path: { tenant }, urlParams: { from: "2026-05-01", to: "2026-05-01" } }
        const json = yield* Effect.promise(() => cisbook.salesInvoices.listSalesInvoicePayments(request))
        expect(json).toMatchObject([{ invoiceId: created.id, amount: 2500, contactCode: "ACME" }])
        const csv = yield* Effect.promise(() => cisbook.salesInvoices.salesInvoicePaymentsCsv(request))
        expect(csv.split("\r\n")[1]).toContain(`,2026-05-01,25.00,0.00,${created.id},INV-000001,`)
        const refused = yield* Effect.promise(() =>
          cisbook.salesInvoices.getSalesInvoice({ path: { tenant, invoice: "nope" } }).then(
            () => undefined,
            (error: unknown) => error
          )
        )
        expect(refused).toMatchObject({ _tag: "NotFound" })
      })
    )
  })

  describe("tenant isolation", () => {
    it.effect("never shows or changes another tenant's invoices and payments", () =>
      Effect.gen(function* () {
        const a = yield* owner("siisoa")
        const b = yield* owner("siisob")
        const mine = yield* a.api.salesInvoices.createSalesInvoice({
          path: { tenant: a.tenant },
          payload: invoiceInPence
        })
        yield* a.api.salesInvoices.createSalesInvoicePayment({
          path: { tenant: a.tenant, invoice: mine.id },
          payload: { date: "2026-05-01", amount: 100 }
        })
        // Through A's path, B is no member: 403.
        for (const [method, url, body] of [
          ["GET", `/tenants/${a.tenant}/sales-invoices`, undefined],
          ["POST", `/tenants/${a.tenant}/sales-invoices`, invoice],
          ["GET", `/tenants/${a.tenant}/sales-invoices/${mine.id}`, undefined],
          ["POST", `/tenants/${a.tenant}/sales-invoices/${mine.id}/payments`, { date: "2026-05-01", amount: 1 }],
          ["GET", `/tenants/${a.tenant}/sales-invoices/payments?from=2026-01-01&to=2026-12-31`, undefined]
        ] as const) {
          const res = yield* raw(b.key, method, url, body === undefined ? {} : { body })
          expect(res.status, `${method} ${url}`).toBe(403)
        }
        // Through B's own path, A's invoice does not exist.
        expect((yield* raw(b.key, "GET", `/tenants/${b.tenant}/sales-invoices/${mine.id}`)).status).toBe(404)
        const pay = yield* raw(b.key, "POST", `/tenants/${b.tenant}/sales-invoices/${mine.id}/payments`, {
          body: { date: "2026-05-01", amount: 1 }
        })
        expect(pay.status).toBe(404)
        expect(
          yield* b.api.salesInvoices.listSalesInvoicePayments({
            path: { tenant: b.tenant },
            urlParams: { from: "2026-01-01", to: "2026-12-31" }
          })
        ).toEqual([])
        expect(
          (yield* b.api.salesInvoices.listSalesInvoices({ path: { tenant: b.tenant }, urlParams: {} })).totalCount
        ).toBe(0)
        expect(
          yield* a.api.salesInvoices.getSalesInvoice({ path: { tenant: a.tenant, invoice: mine.id } })
        ).toMatchObject({
          amountPaid: 100
        })
        expect((yield* raw(a.key, "GET", `/tenants/no-such-tenant-x/sales-invoices`)).status).toBe(404)
        expect((yield* raw(undefined, "GET", `/tenants/${a.tenant}/sales-invoices`)).status).toBe(401)
      })
    )
  })

  describe("documents", () => {
    it.effect("describe the report's two forms and money as pounds with at most 2 decimals", () =>
      Effect.gen(function* () {
        const doc = (yield* raw(undefined, "GET", "/openapi.json")).body
        const report = doc.paths["/tenants/{tenant}/sales-invoices/payments"].get
        expect(Object.keys(report.responses["200"].content)).toEqual(["application/json", "text/csv"])
        expect(Object.keys(report.responses).sort()).toEqual(["200", "400", "401", "403", "404", "429", "503"])
        expect(report.parameters.map((p: any) => p.name)).not.toContain("accept")
        expect(doc.components.schemas.SalesInvoicePaymentsReport).toMatchObject({
          type: "array",
          items: { $ref: "#/components/schemas/SalesInvoicePaymentsReportItem" }
        })
        expect(report.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual(
          expect.arrayContaining([
            ["from", "query", true],
            ["to", "query", true]
          ])
        )
        const request = doc.components.schemas.CreateSalesInvoiceRequest
        expect(request.properties.subtotal).toMatchObject({ type: "number", minimum: 0, multipleOf: 0.01 })
        expect(doc.components.schemas.SalesInvoiceDto.examples[0]).toMatchObject({ subtotal: 1000, amountDue: 400 })
        expect(Object.keys(doc.paths)).toEqual(
          expect.arrayContaining([
            "/tenants/{tenant}/sales-invoices",
            "/tenants/{tenant}/sales-invoices/{invoice}",
            "/tenants/{tenant}/sales-invoices/{invoice}/payments",
            "/tenants/{tenant}/purchase-invoices",
            "/tenants/{tenant}/purchase-invoices/{invoice}"
          ])
        )
      })
    )
  })
})

/** A sales invoice to ACME as the SDK takes it: money in pence. */
const invoiceInPence = {
  contact: "ACME",
  issueDate: "2026-04-06",
  dueDate: "2026-05-06",
  subtotal: 10000,
  vat: 2000
}
