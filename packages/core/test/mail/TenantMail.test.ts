import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Email } from "../../src/Email.js"
import type { TemplateValues } from "../../src/mail/TemplateValues.js"
import { TenantMail } from "../../src/mail/TenantMail.js"
import { outboxMails } from "./OutboxMails.js"
import { Transactor } from "../../src/system/Transactor.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { TenantEmailSettings } from "../../src/mail/TenantEmailSettings.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"

const statement: TemplateValues["CisStatement"] = {
  tenantName: "Acme Builders",
  contactName: "John Smith",
  taxMonthEnd: "2026-06-05",
  grossAmount: 250000,
  materials: 50000,
  deducted: 40000
}

/** The tenant acme-builders, with the email address given, and its owner. */
const acme = (email: Email | null) =>
  Effect.gen(function* () {
    const owner = yield* aUser("owner@example.com")
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make("acme-builders"),
        name: "Acme Builders",
        email
      })
      .pipe(asUser(owner))
    return { owner, tenant } as const
  })

const queue = (tenantId: Parameters<TenantMail["Type"]["queue"]>[0]["tenantId"], actingUserEmail: Email | null) =>
  Effect.flatMap(TenantMail, (mail) =>
    mail.queue({
      tenantId,
      type: "CisStatement",
      to: "john@smith.example" as Email,
      values: statement,
      actingUserEmail,
      attachments: [{ filename: "statement.pdf", contentType: "application/pdf", content: new Uint8Array([1, 2]) }]
    })
  )

it.effect("renders the default template, replies to the tenant's email, and keeps the attachment", () =>
  Effect.gen(function* () {
    const { owner, tenant } = yield* acme("office@acme.example" as Email)
    const queued = yield* queue(tenant.id, owner.email)
    expect(queued).toMatchObject({
      to: "john@smith.example",
      subject: "Your CIS payment and deduction statement for the month to 5 June 2026",
      status: "Queued"
    })
    const [mail] = yield* outboxMails
    expect(mail).toMatchObject({ id: queued.id, fromName: "Acme Builders", replyTo: "office@acme.example" })
    expect(mail?.body).toContain("Gross amount paid (excluding VAT): £2,500.00")
    expect(mail?.body).toContain("Amount deducted: £400.00")
    expect(mail?.body.endsWith("Kind regards,\nAcme Builders")).toBe(true)
    expect(mail?.attachments).toEqual([
      { filename: "statement.pdf", contentType: "application/pdf", content: new Uint8Array([1, 2]) }
    ])
  }).pipe(Effect.provide(testApp()))
)

it.effect("renders the tenant's customised template with its signature, replying to the acting user", () =>
  Effect.gen(function* () {
    const { owner, tenant } = yield* acme(null)
    const settings = yield* TenantEmailSettings
    yield* settings.setSettings({ signature: "Ada", autoEmailStatements: true }).pipe(asMember(owner, "acme-builders"))
    yield* settings
      .setTemplate("CisStatement", {
        subject: "Statement to {{taxMonthEnd}}",
        body: "{{contactName}}: {{deducted}} deducted."
      })
      .pipe(asMember(owner, "acme-builders"))
    yield* queue(tenant.id, owner.email)
    const [mail] = yield* outboxMails
    expect(mail).toMatchObject({
      subject: "Statement to 5 June 2026",
      body: "John Smith: £400.00 deducted.\n\n-- \nAda",
      replyTo: "owner@example.com"
    })
  }).pipe(Effect.provide(testApp()))
)

it.effect("queues nothing when the transaction it is part of fails", () =>
  Effect.gen(function* () {
    const { tenant } = yield* acme(null)
    const { transaction } = yield* Transactor
    yield* transaction(Effect.zipRight(queue(tenant.id, null), Effect.fail("no"))).pipe(Effect.flip)
    expect(yield* outboxMails).toEqual([])
  }).pipe(Effect.provide(testApp()))
)
