import type { Email } from "@cisbook/core/Email"
import { MailId } from "@cisbook/core/Ids"
import type { OutgoingMail } from "@cisbook/core/mail/OutgoingMail"
import { type ClaimedMail, MailOutbox } from "@cisbook/core/mail/MailOutbox"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

const pdf = new Uint8Array([37, 80, 68, 70, 0, 255, 10, 13])

const newMail = (tenant: Tenant, createdAt: Date, attachments: OutgoingMail["attachments"] = []) =>
  Effect.map(fresh, ({ id, token }): OutgoingMail => ({
    tenantId: tenant.id,
    id: MailId.make(id),
    type: "SalesInvoice",
    to: `to-${token}@example.com` as Email,
    fromName: tenant.name,
    replyTo: null,
    subject: `Invoice ${token}`,
    body: "Dear Zoë,\n\nThank you.",
    attachments,
    createdAt
  }))

const minutes = 60_000
const sent = (attempts: number, now: Date) =>
  ({ status: "Sent", attempts, nextAttemptAt: null, lastError: null, sentAt: now }) as const

export const mailOutboxContract = (it: ContractIt) => {
  it.effect("leases due mail to one claimer at a time, with its attachments, until the lease runs out", () =>
    Effect.gen(function* () {
      const outbox = yield* MailOutbox
      const tenant = yield* storedTenant
      const mail = yield* newMail(tenant, at(0), [
        { filename: "statement.pdf", contentType: "application/pdf", content: pdf }
      ])
      yield* outbox.add(mail)
      const mine = (claimed: ReadonlyArray<ClaimedMail>) => claimed.filter((c) => c.mail.id === mail.id)
      expect(mine(yield* outbox.claimDue(at(-1), at(4), 1000))).toEqual([])
      const [first] = mine(yield* outbox.claimDue(at(0), at(5), 1000))
      expect(first).toMatchObject({ attempts: 0, mail: { ...mail, attachments: [expect.anything()] } })
      expect(new Uint8Array(first!.mail.attachments[0]!.content)).toEqual(pdf)
      expect(first!.mail.attachments[0]).toMatchObject({ filename: "statement.pdf", contentType: "application/pdf" })
      expect(mine(yield* outbox.claimDue(at(4), at(9), 1000))).toEqual([])
      const [second] = mine(yield* outbox.claimDue(at(5), at(10), 1000))
      expect(second?.leaseToken).not.toBe(first?.leaseToken)
      // The first lease was taken over: what it records is dropped.
      yield* outbox.record([{ mail, leaseToken: first!.leaseToken, progress: sent(1, at(6)) }])
      const [listed] = (yield* outbox.list({ status: null, limit: 1000 })).filter((m) => m.id === mail.id)
      expect(listed).toMatchObject({ status: "Queued", attempts: 0, to: mail.to, subject: mail.subject })
      yield* outbox.record([{ mail, leaseToken: second!.leaseToken, progress: sent(1, at(6)) }])
      expect(mine(yield* outbox.claimDue(at(60), at(65), 1000))).toEqual([])
      const [done] = (yield* outbox.list({ status: "Sent", limit: 1000 })).filter((m) => m.id === mail.id)
      expect(done).toMatchObject({ status: "Sent", attempts: 1, sentAt: at(6), lastError: null, tenantId: tenant.id })
    })
  )

  it.effect("keeps a deferred mail until it is due again, and queues a failed one again on request", () =>
    Effect.gen(function* () {
      const outbox = yield* MailOutbox
      const tenant = yield* storedTenant
      const mail = yield* newMail(tenant, at(100))
      yield* outbox.add(mail)
      const claim = (now: Date) =>
        Effect.map(outbox.claimDue(now, new Date(now.getTime() + 5 * minutes), 1000), (all) =>
          all.filter((c) => c.mail.id === mail.id)
        )
      const [first] = yield* claim(at(100))
      yield* outbox.record([
        {
          mail,
          leaseToken: first!.leaseToken,
          progress: { status: "Queued", attempts: 1, nextAttemptAt: at(110), lastError: "451 later", sentAt: null }
        }
      ])
      expect(yield* claim(at(109))).toEqual([])
      const [second] = yield* claim(at(110))
      expect(second?.attempts).toBe(1)
      yield* outbox.record([
        {
          mail,
          leaseToken: second!.leaseToken,
          progress: { status: "Failed", attempts: 2, nextAttemptAt: null, lastError: "550 no", sentAt: null }
        }
      ])
      expect(yield* claim(at(500))).toEqual([])
      const [failed] = (yield* outbox.list({ status: "Failed", limit: 1000 })).filter((m) => m.id === mail.id)
      expect(failed).toMatchObject({ attempts: 2, lastError: "550 no", nextAttemptAt: null })
      const other = yield* newMail(tenant, at(100))
      expect(yield* outbox.retry(other.id, at(501))).toBe(false)
      expect(yield* outbox.retry(mail.id, at(501))).toBe(true)
      expect(yield* outbox.retry(mail.id, at(501))).toBe(false)
      const [again] = yield* claim(at(501))
      expect(again?.attempts).toBe(0)
    })
  )

  it.effect("lists newest first, by status, up to the limit", () =>
    Effect.gen(function* () {
      const outbox = yield* MailOutbox
      const tenant = yield* storedTenant
      const older = yield* newMail(tenant, at(1000))
      const newer = yield* newMail(tenant, at(1001))
      yield* outbox.add(older)
      yield* outbox.add(newer)
      const ids = (yield* outbox.list({ status: "Queued", limit: 1000 })).map((m) => m.id)
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id))
      expect((yield* outbox.list({ status: null, limit: 1 })).map((m) => m.id)).toEqual([newer.id])
      expect((yield* outbox.list({ status: "Sent", limit: 1000 })).map((m) => m.id)).not.toContain(newer.id)
    })
  )

  it.effect("tells which of a tenant's mails the SMTP server took, to whom and when", () =>
    Effect.gen(function* () {
      const outbox = yield* MailOutbox
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const taken = yield* newMail(tenant, at(2000))
      const waiting = yield* newMail(tenant, at(2000))
      const theirs = yield* newMail(other, at(2000))
      for (const mail of [taken, waiting, theirs]) yield* outbox.add(mail)
      const claimed = (yield* outbox.claimDue(at(2000), at(2005), 1000)).filter((c) =>
        [taken.id, waiting.id, theirs.id].includes(c.mail.id)
      )
      expect(claimed).toHaveLength(3)
      yield* outbox.record(
        claimed.map((c) => ({
          mail: c.mail,
          leaseToken: c.leaseToken,
          progress:
            c.mail.id === waiting.id
              ? { status: "Queued", attempts: 1, nextAttemptAt: at(2010), lastError: "451 later", sentAt: null }
              : sent(1, at(2001))
        }))
      )
      const asked = [taken.id, waiting.id, theirs.id]
      expect(yield* outbox.sentOf(tenant.id, asked)).toEqual([{ id: taken.id, to: taken.to, sentAt: at(2001) }])
      expect(yield* outbox.sentOf(other.id, asked)).toEqual([{ id: theirs.id, to: theirs.to, sentAt: at(2001) }])
      expect(yield* outbox.sentOf(tenant.id, [])).toEqual([])
    })
  )
}
