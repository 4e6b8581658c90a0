import { smtpMailTransport } from "@cisbook/adapters/mail/SmtpMailTransport"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import type { Email } from "@cisbook/core/Email"
import type { TenantId } from "@cisbook/core/Ids"
import { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import type { TemplateValues } from "@cisbook/core/mail/TemplateValues"
import { TenantMail } from "@cisbook/core/mail/TenantMail"
import { Clock } from "@cisbook/core/system/Clock"
import { EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { Transactor } from "@cisbook/core/system/Transactor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { MailDispatch } from "@cisbook/core/mail/MailDispatch"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { type SmtpReceiver, startSmtpReceiver } from "@cisbook/testkit/SmtpReceiver"
import { appOver, eventually } from "./WorkerTestApp.js"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Layer, Logger, Ref, Scope } from "effect"
import { mailSender, MailSenderLive } from "../src/workers/MailSender.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const FROM = "mail@cisbook.example"
const fast = { pollInterval: Duration.millis(20), concurrency: 8, lease: Duration.seconds(60) }

let counter = 0
/** A tenant with an email address and a signature. */
const aTenant = (name: string) =>
  Effect.gen(function* () {
    const n = ++counter
    const owner = yield* (yield* Users).create({ email: `owner${n}@example.com` as Email, name: "Owner" })
    const code = `mail-${n}-${Date.now().toString(36)}`
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make(code),
        name,
        email: `accounts${n}@builders.example` as Email
      })
      .pipe(asUser(owner))
    yield* (yield* EmailSettingsRepo).setSettings(
      tenant.id,
      new EmailSettings({ signature: "Ada Lovelace\nAccounts, 020 7946 0000", autoEmailStatements: false })
    )
    return { owner, tenant } as const
  })

const invoiceValues = (overrides: Partial<TemplateValues["SalesInvoice"]> = {}): TemplateValues["SalesInvoice"] => ({
  tenantName: "Brontë & Sons Ltd",
  contactName: "Zoë Smith",
  invoiceNumber: "INV-000042",
  issueDate: "2026-06-05",
  dueDate: "2026-07-05",
  total: 123456,
  amountDue: 100000,
  reference: null,
  ...overrides
})

/** Queues a sales invoice mail in a transaction, as a use case does. */
const queueInvoiceMail = (
  tenantId: TenantId,
  to: string,
  values = invoiceValues(),
  attachments: ReadonlyArray<{ filename: string; contentType: string; content: Uint8Array }> = []
) =>
  Effect.flatMap(Transactor, (tx) =>
    tx.transaction(
      Effect.flatMap(TenantMail, (mail) =>
        mail.queue({ tenantId, type: "SalesInvoice", to: to as Email, values, actingUserEmail: null, attachments })
      )
    )
  )

/** Runs the sender until the returned effect closes it (as SIGTERM would). */
const startSender = (smtp: SmtpReceiver, options = fast, connections = 2) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(
      mailSender(options).pipe(
        Layer.provide(MailDispatch.Default),
        Layer.provide(smtpMailTransport({ url: smtp.url, from: FROM, connections }))
      ),
      scope
    )
    return Scope.close(scope, Exit.void)
  })

const mailsTo = (address: string) =>
  Effect.flatMap(MailOutbox, (outbox) => outbox.list({ status: null, limit: 1000 })).pipe(
    Effect.map((all) => all.filter((m) => m.to === address))
  )

/** The real clock moved on by what `shift` holds, for the dispatch of due retries. */
const shiftedClock = (shift: Ref.Ref<number>) =>
  Layer.effect(
    Clock,
    Effect.map(Clock, (real) =>
      Clock.of({ now: Effect.zipWith(real.now, Ref.get(shift), (at, ms) => new Date(at.getTime() + ms)) })
    )
  )

const pdf = new TextEncoder().encode("%PDF-1.4\n% statement\n%%EOF\n")

layer(appOver(EphemeralDatabase), { excludeTestServices: true, timeout: "60 seconds" })("mail sender", (it) => {
  it.scoped("sends a tenant's mail through a real SMTP server, read back with a MIME parser", () =>
    Effect.gen(function* () {
      const smtp = yield* startSmtpReceiver
      const { tenant } = yield* aTenant("Brontë & Sons Ltd")
      const queued = yield* queueInvoiceMail(tenant.id, "zoe@customer.example", invoiceValues(), [
        { filename: "INV-000042.pdf", contentType: "application/pdf", content: pdf }
      ])
      expect(queued).toMatchObject({ to: "zoe@customer.example", subject: "Invoice INV-000042 from Brontë & Sons Ltd" })
      const stop = yield* startSender(smtp)
      const [got] = yield* smtp.waitFor(1)
      const [sent] = yield* eventually(mailsTo("zoe@customer.example"), ([m]) => m?.status === "Sent")
      yield* stop

      const parsed = got!.parsed
      expect(got!.envelopeFrom).toBe(FROM)
      expect(got!.envelopeTo).toEqual(["zoe@customer.example"])
      expect(parsed.from?.value).toEqual([{ name: "Brontë & Sons Ltd", address: FROM }])
      expect(parsed.replyTo?.value).toEqual([{ name: "", address: tenant.email }])
      expect(parsed.subject).toBe("Invoice INV-000042 from Brontë & Sons Ltd")
      // Not ASCII, so the subject goes as an encoded word.
      expect(got!.raw).toMatch(/^Subject: =\?UTF-8\?[QB]\?/im)
      expect(parsed.messageId).toBe(`<${queued.id}@cisbook.example>`)
      expect(parsed.text).toContain("Dear Zoë Smith,")
      expect(parsed.text).toContain("Invoice total: £1,234.56")
      expect(parsed.text).toContain("Amount due: £1,000.00")
      expect(parsed.text).toContain("Payment due by: 5 July 2026")
      expect(parsed.text?.trimEnd().endsWith("\n-- \nAda Lovelace\nAccounts, 020 7946 0000")).toBe(true)
      expect(parsed.html).toBe(false)
      expect(parsed.attachments).toHaveLength(1)
      expect(parsed.attachments[0]).toMatchObject({ filename: "INV-000042.pdf", contentType: "application/pdf" })
      expect(new Uint8Array(parsed.attachments[0]!.content)).toEqual(pdf)
      expect(sent).toMatchObject({ status: "Sent", attempts: 1, lastError: null, type: "SalesInvoice" })
      expect(sent!.sentAt).not.toBeNull()
    })
  )

  it.scoped(
    "inserts values as text: a value adds no header, no recipient, no line to the subject, no placeholder",
    () =>
      Effect.gen(function* () {
        const smtp = yield* startSmtpReceiver
        const { tenant } = yield* aTenant("Plain Ltd")
        yield* queueInvoiceMail(
          tenant.id,
          "victim@customer.example",
          invoiceValues({
            invoiceNumber: "INV-1\r\nBcc: thief@evil.example\r\nX-Injected: yes",
            contactName: "{{tenantName}}"
          })
        )
        const stop = yield* startSender(smtp)
        const [got] = yield* smtp.waitFor(1)
        yield* stop
        expect(got!.envelopeTo).toEqual(["victim@customer.example"])
        expect(got!.parsed.bcc).toBeUndefined()
        expect(got!.parsed.headers.has("x-injected")).toBe(false)
        expect(got!.parsed.subject).toBe("Invoice INV-1 Bcc: thief@evil.example X-Injected: yes from Brontë & Sons Ltd")
        expect(got!.parsed.text).toContain("Dear {{tenantName}},")
      })
  )

  it.scoped("queues nothing when the change that causes the mail fails", () =>
    Effect.gen(function* () {
      const { tenant } = yield* aTenant("Rollback Ltd")
      const failed = yield* Effect.flatMap(Transactor, (tx) =>
        tx.transaction(
          Effect.zipRight(queueInvoiceMail(tenant.id, "never@customer.example"), Effect.fail("the change failed"))
        )
      ).pipe(Effect.flip)
      expect(failed).toBe("the change failed")
      expect(yield* mailsTo("never@customer.example")).toEqual([])
    })
  )

  it.scoped("keeps mail queued while the SMTP server is down, then delivers every message exactly once", () =>
    Effect.gen(function* () {
      const smtp = yield* startSmtpReceiver
      const { tenant } = yield* aTenant("Outage Ltd")
      yield* smtp.stop
      const queued = yield* Effect.forEach([1, 2, 3, 4, 5], (n) =>
        queueInvoiceMail(tenant.id, "outage@customer.example", invoiceValues({ invoiceNumber: `INV-${n}` }))
      )
      const shift = yield* Ref.make(0)
      const dispatch = MailDispatch.Default.pipe(
        Layer.provide(smtpMailTransport({ url: smtp.url, from: FROM, connections: 2 })),
        Layer.provide(shiftedClock(shift))
      )
      const sendDue = Effect.flatMap(MailDispatch, (d) => d.sendDue(50, fast.lease)).pipe(Effect.provide(dispatch))
      expect(yield* sendDue).toBe(5)
      const waiting = yield* mailsTo("outage@customer.example")
      for (const mail of waiting) {
        expect(mail).toMatchObject({ status: "Queued", attempts: 1 })
        expect(mail.lastError).toMatch(/ECONNREFUSED|connect/i)
        expect(mail.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(50_000)
      }
      // Not due again yet: nothing is claimed.
      expect(yield* sendDue).toBe(0)

      yield* smtp.start
      yield* Ref.set(shift, 61_000)
      expect(yield* sendDue).toBe(5)
      expect(yield* sendDue).toBe(0)
      const got = yield* smtp.received
      expect(got.map((m) => m.parsed.messageId).sort()).toEqual(queued.map((q) => `<${q.id}@cisbook.example>`).sort())
      const sent = yield* mailsTo("outage@customer.example")
      expect(sent.every((m) => m.status === "Sent" && m.attempts === 2)).toBe(true)
    })
  )

  it.scoped("retries a 4xx answer later, fails a 5xx answer at once, and queues a failed mail again on request", () =>
    Effect.gen(function* () {
      const smtp = yield* startSmtpReceiver
      const { tenant } = yield* aTenant("Answers Ltd")
      yield* smtp.answerWith((index) =>
        index === 0
          ? { code: 451, message: "Try again later" }
          : index === 1
            ? { code: 550, message: "No such user" }
            : "accept"
      )
      const dispatch = MailDispatch.Default.pipe(
        Layer.provide(smtpMailTransport({ url: smtp.url, from: FROM, connections: 1 }))
      )
      const sendDue = Effect.flatMap(MailDispatch, (d) => d.sendDue(1, fast.lease)).pipe(Effect.provide(dispatch))
      const deferred = yield* queueInvoiceMail(tenant.id, "later@customer.example")
      yield* sendDue
      const refused = yield* queueInvoiceMail(tenant.id, "nobody@customer.example")
      yield* sendDue
      const [later] = yield* mailsTo("later@customer.example")
      const [nobody] = yield* mailsTo("nobody@customer.example")
      expect(later).toMatchObject({ id: deferred.id, status: "Queued", attempts: 1 })
      expect(later!.lastError).toContain("451")
      expect(nobody).toMatchObject({ id: refused.id, status: "Failed", attempts: 1, nextAttemptAt: null })
      expect(nobody!.lastError).toContain("550")

      const outbox = yield* MailOutbox
      expect(yield* outbox.retry(deferred.id, new Date())).toBe(false)
      expect(yield* outbox.retry(refused.id, new Date())).toBe(true)
      expect(yield* sendDue).toBe(1)
      const [again] = yield* mailsTo("nobody@customer.example")
      expect(again).toMatchObject({ status: "Sent", attempts: 1, lastError: null })
      expect((yield* smtp.received).map((m) => m.envelopeTo)).toEqual([["nobody@customer.example"]])
    })
  )

  it.scoped("sends again, after the lease, the mail a sender was stopped in the middle of; each arrives once", () =>
    Effect.gen(function* () {
      const smtp = yield* startSmtpReceiver
      const { tenant } = yield* aTenant("Crash Ltd")
      // The server takes the first three messages' data and never answers: the sender is killed mid-batch.
      yield* smtp.answerWith((index) => (index < 3 ? "hold" : "accept"))
      const queued = yield* Effect.forEach([1, 2, 3, 4, 5, 6], (n) =>
        queueInvoiceMail(tenant.id, "crash@customer.example", invoiceValues({ invoiceNumber: `INV-${n}` }))
      )
      const lease = Duration.seconds(1)
      const stopFirst = yield* startSender(smtp, { ...fast, lease }, 8)
      yield* eventually(mailsTo("crash@customer.example"), (all) => all.filter((m) => m.status === "Sent").length === 3)
      yield* stopFirst
      const afterCrash = yield* mailsTo("crash@customer.example")
      expect(afterCrash.filter((m) => m.status === "Queued" && m.attempts === 0)).toHaveLength(3)

      const stopSecond = yield* startSender(smtp, { ...fast, lease }, 8)
      yield* eventually(mailsTo("crash@customer.example"), (all) => all.every((m) => m.status === "Sent"))
      yield* stopSecond
      const got = yield* smtp.received
      expect(got.map((m) => m.parsed.messageId).sort()).toEqual(queued.map((q) => `<${q.id}@cisbook.example>`).sort())
    })
  )

  it.scoped("says once at start, without SMTP_URL, that mail stays queued, and sends nothing", () =>
    Effect.gen(function* () {
      const smtp = yield* startSmtpReceiver
      const { tenant } = yield* aTenant("Unsent Ltd")
      const queued = yield* queueInvoiceMail(tenant.id, "unsent@customer.example")
      const lines = yield* Ref.make<ReadonlyArray<string>>([])
      const capture = Logger.make(({ logLevel, message }) =>
        Effect.runSync(Ref.update(lines, (all) => [...all, `${logLevel.label} ${String(message)}`]))
      )
      const scope = yield* Scope.make()
      yield* Layer.buildWithScope(
        MailSenderLive.pipe(
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map()))),
          Layer.provide(Logger.replace(Logger.defaultLogger, capture))
        ),
        scope
      )
      yield* Scope.close(scope, Exit.void)
      expect(yield* Ref.get(lines)).toEqual([
        "WARN SMTP_URL is not set: mail stays queued in the outbox and is not sent (see pnpm cli mail list)"
      ])
      expect(yield* mailsTo("unsent@customer.example")).toMatchObject([
        { id: queued.id, status: "Queued", attempts: 0 }
      ])
      expect(yield* smtp.received).toEqual([])
    })
  )
})
