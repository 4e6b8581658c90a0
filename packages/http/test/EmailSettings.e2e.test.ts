import { defaultTemplates } from "@cisbook/core/mail/DefaultTemplates"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { HttpServer } from "@effect/platform"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

/** An owner signed up with a tenant of their own. */
const ownerWithTenant = Effect.gen(function* () {
  const owner = yield* signUp("owner")
  const tenant = uniqueTenantCode("mail")
  yield* owner.api.tenants.createTenant({ payload: { code: tenant, name: "Lovelace Builders Ltd" } })
  return { ...owner, tenant } as const
})

const invoicePlaceholders = [
  "tenantName",
  "contactName",
  "invoiceNumber",
  "issueDate",
  "dueDate",
  "total",
  "amountDue",
  "reference"
]

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("email settings over HTTP", (it) => {
  describe("GET and PUT /tenants/{tenant}/settings/email", () => {
    it.effect("answers the defaults before any PUT, then replaces the settings whole; a blank signature is null", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* ownerWithTenant
        const path = { tenant }
        expect({ ...(yield* api.emailSettings.getEmailSettings({ path })) }).toEqual({
          signature: null,
          autoEmailStatements: false
        })
        const saved = yield* api.emailSettings.updateEmailSettings({
          path,
          payload: { signature: "Ada Lovelace\nAccounts", autoEmailStatements: true }
        })
        expect({ ...saved }).toEqual({ signature: "Ada Lovelace\nAccounts", autoEmailStatements: true })
        expect({ ...(yield* api.emailSettings.getEmailSettings({ path })) }).toEqual({ ...saved })
        const blank = yield* api.emailSettings.updateEmailSettings({
          path,
          payload: { signature: "   ", autoEmailStatements: false }
        })
        expect({ ...blank }).toEqual({ signature: null, autoEmailStatements: false })
      })
    )

    it.effect(
      "refuses a missing member or a signature over 2,000 characters with 400 naming it, changing nothing",
      () =>
        Effect.gen(function* () {
          const { api, key, tenant } = yield* ownerWithTenant
          const url = `/tenants/${tenant}/settings/email`
          const missing = yield* raw(key, "PUT", url, { signature: "Ada" })
          expect(missing.status).toBe(400)
          expect(missing.contentType).toContain("application/problem+json")
          expect(Object.keys(missing.body?.errors ?? {})).toEqual(["autoEmailStatements"])
          const long = yield* raw(key, "PUT", url, { signature: "x".repeat(2001), autoEmailStatements: true })
          expect(long.status).toBe(400)
          expect(long.body?.errors).toEqual({ signature: ["A signature has at most 2,000 characters"] })
          expect({ ...(yield* api.emailSettings.getEmailSettings({ path: { tenant } })) }).toEqual({
            signature: null,
            autoEmailStatements: false
          })
        })
    )

    it.effect("answers 404 to a caller who is not a member, on every email-settings path", () =>
      Effect.gen(function* () {
        const { tenant } = yield* ownerWithTenant
        const stranger = yield* signUp("stranger")
        const base = `/tenants/${tenant}/settings/email`
        const answers = yield* Effect.all([
          raw(stranger.key, "GET", base),
          raw(stranger.key, "PUT", base, { signature: null, autoEmailStatements: true }),
          raw(stranger.key, "GET", `${base}/templates`),
          raw(stranger.key, "GET", `${base}/templates/SalesInvoice`),
          raw(stranger.key, "PUT", `${base}/templates/SalesInvoice`, { subject: "Hi", body: "Hello" }),
          raw(stranger.key, "DELETE", `${base}/templates/SalesInvoice`),
          raw(stranger.key, "GET", `${base}/templates/Bogus`)
        ])
        expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404])
        expect(answers[0]?.contentType).toContain("application/problem+json")
      })
    )
  })

  describe("email templates", () => {
    it.effect("lists the four types in order, each with its defaults and placeholders, un-customised", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* ownerWithTenant
        const all = yield* api.emailSettings.listEmailTemplates({ path: { tenant } })
        expect(all.map((t) => t.type)).toEqual([
          "ConnectionInvitation",
          "CisStatement",
          "SalesInvoice",
          "PaymentReminder"
        ])
        for (const template of all) {
          expect(template).toMatchObject({
            subject: defaultTemplates[template.type].subject,
            body: defaultTemplates[template.type].body,
            defaultSubject: defaultTemplates[template.type].subject,
            defaultBody: defaultTemplates[template.type].body,
            isCustomised: false
          })
        }
        expect(all[0]?.placeholders).toEqual(["tenantName", "contactName", "purpose", "connectionUrl"])
        expect(all[1]?.placeholders).toEqual([
          "tenantName",
          "contactName",
          "taxMonthEnd",
          "grossAmount",
          "materials",
          "deducted"
        ])
        expect(all[2]?.placeholders).toEqual(invoicePlaceholders)
        expect(all[3]?.placeholders).toEqual([...invoicePlaceholders, "daysOverdue"])
      })
    )

    it.effect(
      "customises a template, un-customises it when set to the defaults, and DELETE restores the defaults",
      () =>
        Effect.gen(function* () {
          const { api, tenant } = yield* ownerWithTenant
          const path = { tenant, type: "SalesInvoice" }
          const custom = {
            subject: "Your invoice {{ invoiceNumber }}",
            body: "Hello {{contactName}}, {{total}} please."
          }
          const saved = yield* api.emailSettings.updateEmailTemplate({ path, payload: custom })
          expect(saved).toMatchObject({ ...custom, isCustomised: true, type: "SalesInvoice" })
          expect(yield* api.emailSettings.getEmailTemplate({ path })).toMatchObject({ ...custom, isCustomised: true })
          const others = yield* api.emailSettings.listEmailTemplates({ path: { tenant } })
          expect(others.filter((t) => t.isCustomised).map((t) => t.type)).toEqual(["SalesInvoice"])

          const defaults = defaultTemplates.SalesInvoice
          const back = yield* api.emailSettings.updateEmailTemplate({ path, payload: defaults })
          expect(back).toMatchObject({ ...defaults, isCustomised: false })

          yield* api.emailSettings.updateEmailTemplate({ path, payload: custom })
          const reset = yield* api.emailSettings.resetEmailTemplate({ path })
          expect(reset).toMatchObject({ ...defaults, isCustomised: false })
          expect(yield* api.emailSettings.getEmailTemplate({ path })).toMatchObject({
            ...defaults,
            isCustomised: false
          })
        })
    )

    it.effect("refuses an unknown placeholder, naming the member and the name, and bad lengths or lines", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerWithTenant
        const url = `/tenants/${tenant}/settings/email/templates/ConnectionInvitation`
        const unknown = yield* raw(key, "PUT", url, {
          subject: "Hi {{ invoiceNumber }}",
          body: "{{connectionUrl}} {{ foo }}"
        })
        expect(unknown.status).toBe(400)
        expect(unknown.contentType).toContain("application/problem+json")
        expect(unknown.body?.errors).toEqual({
          subject: [
            "Unknown placeholder {{invoiceNumber}}: ConnectionInvitation templates can use tenantName, contactName, purpose, connectionUrl"
          ],
          body: [
            "Unknown placeholder {{foo}}: ConnectionInvitation templates can use tenantName, contactName, purpose, connectionUrl"
          ]
        })
        const lines = yield* raw(key, "PUT", url, { subject: "One\nTwo", body: "" })
        expect(lines.status).toBe(400)
        expect(lines.body?.errors).toEqual({
          subject: ["A subject is one line, with no line breaks"],
          body: ["A body is required"]
        })
        const long = yield* raw(key, "PUT", url, { subject: "x".repeat(201), body: "y".repeat(10_000) })
        expect(long.body?.errors).toEqual({ subject: ["A subject has at most 200 characters"] })
        // Past 10,000 characters the server's input screen refuses any string, this one included.
        const longBody = yield* raw(key, "PUT", url, { subject: "Hi", body: "y".repeat(10_001) })
        expect(longBody.status).toBe(400)
        expect(Object.keys(longBody.body?.errors ?? {})).toEqual(["body"])
        const template = yield* api.emailSettings.getEmailTemplate({ path: { tenant, type: "ConnectionInvitation" } })
        expect(template.isCustomised).toBe(false)
      })
    )

    it.effect("answers 400 to an unknown template type on GET, PUT and DELETE", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerWithTenant
        const url = `/tenants/${tenant}/settings/email/templates/Newsletter`
        const answers = yield* Effect.all([
          raw(key, "GET", url),
          raw(key, "PUT", url, { subject: "Hi", body: "Hello" }),
          raw(key, "DELETE", url)
        ])
        expect(answers.map((a) => a.status)).toEqual([400, 400, 400])
        expect(answers[0]?.body?.errors).toEqual({
          type: [
            'Unknown email template type "Newsletter": use one of ConnectionInvitation, CisStatement, SalesInvoice, PaymentReminder'
          ]
        })
      })
    )
  })

  describe("through the Promise client", () => {
    it.effect("reads and customises templates, and rejects with the typed error", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerWithTenant
        const server = yield* HttpServer.HttpServer
        assert(server.address._tag === "TcpAddress")
        const baseUrl = `http://127.0.0.1:${server.address.port}`
        const cisbook = yield* Effect.promise(() => createPromiseClient({ baseUrl, credentials: { apiKey: key } }))
        const saved = yield* Effect.promise(() =>
          cisbook.emailSettings.updateEmailTemplate({
            path: { tenant, type: "PaymentReminder" },
            payload: { subject: "Reminder: {{invoiceNumber}}", body: "{{daysOverdue}} days late" }
          })
        )
        expect(saved).toMatchObject({ type: "PaymentReminder", isCustomised: true })
        const settings = yield* Effect.promise(() => cisbook.emailSettings.getEmailSettings({ path: { tenant } }))
        expect({ ...settings }).toEqual({ signature: null, autoEmailStatements: false })
        const refused = yield* Effect.promise(() =>
          cisbook.emailSettings
            .updateEmailTemplate({
              path: { tenant, type: "SalesInvoice" },
              payload: { subject: "{{nope}}", body: "x" }
            })
            .then(
              () => undefined,
              (error: unknown) => error
            )
        )
        expect(refused).toMatchObject({
          _tag: "ValidationFailed",
          errors: { subject: [expect.stringContaining("{{nope}}")] }
        })
      })
    )
  })
})
