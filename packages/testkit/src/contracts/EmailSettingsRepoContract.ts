import { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import { EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type ContractIt, membership, newTenant, newUser, storedTenant } from "./Fixtures.js"

const signed = new EmailSettings({ signature: "Ada\nLovelace Builders", autoEmailStatements: true })
const invoice = { type: "SalesInvoice", subject: "Invoice {{invoiceNumber}}", body: "Dear {{contactName}}" } as const

/** A stored tenant with an email address of its own. */
const tenantWithEmail = Effect.gen(function* () {
  const owner = yield* newUser()
  yield* Effect.flatMap(UserRepo, (users) => users.insert(owner))
  const tenant = yield* newTenant({ email: true })
  yield* Effect.flatMap(TenantRepo, (tenants) => tenants.insert(tenant, membership(tenant, owner, "Owner")))
  return tenant
})

export const emailSettingsRepoContract = (it: ContractIt) => {
  it.effect("has no email settings until they are set, then the last ones set, apart for each tenant", () =>
    Effect.gen(function* () {
      const repo = yield* EmailSettingsRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      expect(yield* repo.getSettings(mine.id)).toEqual(Option.none())
      yield* repo.setSettings(mine.id, EmailSettings.defaults)
      yield* repo.setSettings(mine.id, signed)
      expect(yield* repo.getSettings(mine.id)).toEqual(Option.some(signed))
      expect(yield* repo.getSettings(theirs.id)).toEqual(Option.none())
    })
  )

  it.effect("keeps one customised template per type and tenant, replaced on save and gone on delete", () =>
    Effect.gen(function* () {
      const repo = yield* EmailSettingsRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      yield* repo.saveTemplate(mine.id, invoice)
      yield* repo.saveTemplate(mine.id, { ...invoice, subject: "Your invoice {{invoiceNumber}}" })
      yield* repo.saveTemplate(theirs.id, { type: "PaymentReminder", subject: "Reminder", body: "Please pay" })
      expect(yield* repo.listTemplates(mine.id)).toEqual([{ ...invoice, subject: "Your invoice {{invoiceNumber}}" }])
      yield* repo.deleteTemplate(mine.id, "SalesInvoice")
      yield* repo.deleteTemplate(mine.id, "CisStatement")
      expect(yield* repo.listTemplates(mine.id)).toEqual([])
      expect(yield* repo.listTemplates(theirs.id)).toHaveLength(1)
    })
  )

  it.effect("reads what a mail is made from: the tenant's name and email, signature and customised template", () =>
    Effect.gen(function* () {
      const repo = yield* EmailSettingsRepo
      const tenant = yield* tenantWithEmail
      expect(yield* repo.mailContext(tenant.id, "SalesInvoice")).toEqual({
        tenantName: tenant.name,
        tenantEmail: tenant.email,
        signature: null,
        template: Option.none()
      })
      yield* repo.setSettings(tenant.id, signed)
      yield* repo.saveTemplate(tenant.id, invoice)
      expect(yield* repo.mailContext(tenant.id, "SalesInvoice")).toEqual({
        tenantName: tenant.name,
        tenantEmail: tenant.email,
        signature: signed.signature,
        template: Option.some({ subject: invoice.subject, body: invoice.body })
      })
      expect((yield* repo.mailContext(tenant.id, "PaymentReminder")).template).toEqual(Option.none())
    })
  )
}
