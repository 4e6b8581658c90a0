import { Email } from "@cisbook/core/Email"
import { MailId, TenantId } from "@cisbook/core/Ids"
import type { MailAttachment } from "@cisbook/core/mail/MailAttachment"
import { MailType } from "@cisbook/core/mail/MailType"
import type { OutgoingMail } from "@cisbook/core/mail/OutgoingMail"
import { MailStatus } from "@cisbook/core/mail/TenantMail"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { type ClaimedMail, MailOutbox, type RecordedMailAttempt } from "@cisbook/core/mail/MailOutbox"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { leaseClaim } from "./LeaseClaim.js"

const MailRow = Schema.Struct({
  tenantId: Schema.NullOr(TenantId),
  id: MailId,
  type: MailType,
  toAddress: Email,
  fromName: Schema.String,
  replyTo: Schema.NullOr(Email),
  subject: Schema.String,
  body: Schema.String,
  attachmentCount: Schema.Number,
  attempts: Schema.Number,
  createdAt: Schema.DateFromSelf
})
const decodeMails = Schema.decodeUnknown(Schema.Array(MailRow))

const SummaryRow = Schema.Struct({
  tenantId: Schema.NullOr(TenantId),
  id: MailId,
  type: MailType,
  toAddress: Email,
  subject: Schema.String,
  status: MailStatus,
  attempts: Schema.Number,
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  lastError: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  sentAt: Schema.NullOr(Schema.DateFromSelf)
})
const decodeSummaries = Schema.decodeUnknown(Schema.Array(SummaryRow))

const SentRow = Schema.Struct({ id: MailId, toAddress: Email, sentAt: Schema.DateFromSelf })
const decodeSent = Schema.decodeUnknown(Schema.Array(SentRow))

const AttachmentRow = Schema.Struct({
  tenantId: Schema.String,
  mailId: Schema.String,
  filename: Schema.String,
  contentType: Schema.String,
  content: Schema.Uint8ArrayFromSelf
})
const decodeAttachments = Schema.decodeUnknown(Schema.Array(AttachmentRow))

/** An outcome as a row of the record statement (snake_case, as jsonb_to_recordset reads it). */
const outcomeRow = (r: RecordedMailAttempt) => ({
  id: r.mail.id,
  lease_token: r.leaseToken,
  status: r.progress.status,
  attempts: r.progress.attempts,
  next_attempt_at: r.progress.nextAttemptAt,
  last_error: r.progress.lastError,
  sent_at: r.progress.sentAt
})

export const MailOutboxSql = Layer.effect(
  MailOutbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator

    const add = (mail: OutgoingMail) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO mail_outbox ${sql.insert({
          tenantId: mail.tenantId,
          userId: mail.userId ?? null,
          id: mail.id,
          type: mail.type,
          toAddress: mail.to,
          fromName: mail.fromName,
          replyTo: mail.replyTo,
          subject: mail.subject,
          body: mail.body,
          attachmentCount: mail.attachments.length,
          status: "Queued",
          attempts: 0,
          nextAttemptAt: mail.createdAt,
          createdAt: mail.createdAt
        })}`
        if (mail.attachments.length > 0) {
          yield* sql`INSERT INTO mail_attachments ${sql.insert(
            mail.attachments.map((a, position) => ({
              tenantId: mail.tenantId,
              mailId: mail.id,
              position,
              filename: a.filename,
              contentType: a.contentType,
              content: a.content
            }))
          )}`
        }
      }).pipe(Effect.orDie)

    /** The attachments of the mail leased with `token`, by mail, in order. */
    const attachmentsOf = (token: string) =>
      sql`
        SELECT a.tenant_id, a.mail_id, a.filename, a.content_type, a.content
        FROM mail_attachments a
        JOIN mail_outbox m ON m.tenant_id = a.tenant_id AND m.id = a.mail_id
        WHERE m.lease_token = ${token} AND m.attachment_count > 0
        ORDER BY a.tenant_id, a.mail_id, a.position`.pipe(
        Effect.flatMap(decodeAttachments),
        Effect.map((rows) => {
          const byMail = new Map<string, Array<MailAttachment>>()
          for (const row of rows) {
            const key = `${row.tenantId}/${row.mailId}`
            const list = byMail.get(key) ?? []
            list.push({ filename: row.filename, contentType: row.contentType, content: row.content })
            byMail.set(key, list)
          }
          return byMail
        })
      )

    const leases = leaseClaim(sql, {
      table: "mail_outbox",
      alias: "m",
      key: ["id"],
      token: true,
      due: (now) => sql`m.status = 'Queued' AND m.next_attempt_at <= ${now}`,
      order: "m.next_attempt_at",
      returning: () => sql`m.tenant_id, m.id, m.type, m.to_address, m.from_name, m.reply_to, m.subject, m.body,
        m.attachment_count, m.attempts, m.created_at`
    })

    const claimDue = (now: Date, leaseUntil: Date, limit: number) =>
      Effect.gen(function* () {
        const token = yield* ids.uuid
        const rows = yield* leases.claim({ now, leaseUntil, limit, token })
        const mails = yield* decodeMails(rows)
        const attachments = mails.some((m) => m.attachmentCount > 0) ? yield* attachmentsOf(token) : new Map()
        return mails.map((row): ClaimedMail => ({
          mail: {
            tenantId: row.tenantId,
            id: row.id,
            type: row.type,
            to: row.toAddress,
            fromName: row.fromName,
            replyTo: row.replyTo,
            subject: row.subject,
            body: row.body,
            attachments: attachments.get(`${row.tenantId}/${row.id}`) ?? [],
            createdAt: row.createdAt
          },
          attempts: row.attempts,
          leaseToken: token
        }))
      }).pipe(Effect.orDie)

    // One statement for a batch; a mail whose lease is no longer the outcome's is left alone.
    const record = (attempts: ReadonlyArray<RecordedMailAttempt>) =>
      attempts.length === 0
        ? Effect.void
        : sql`
            UPDATE mail_outbox m SET
              status = v.status,
              attempts = v.attempts,
              next_attempt_at = v.next_attempt_at,
              last_error = v.last_error,
              sent_at = v.sent_at,
              ${leases.release}
            FROM jsonb_to_recordset(${JSON.stringify(attempts.map(outcomeRow))}::jsonb) AS v(
              id uuid, lease_token uuid, status text, attempts integer,
              next_attempt_at timestamptz, last_error text, sent_at timestamptz)
            WHERE m.id = v.id AND m.lease_token = v.lease_token`.pipe(Effect.asVoid, Effect.orDie)

    return MailOutbox.of({
      add,
      claimDue,
      record,
      sentOf: (tenantId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`
              SELECT id, to_address, sent_at FROM mail_outbox
              WHERE tenant_id = ${tenantId} AND id IN ${sql.in(ids)} AND status = 'Sent' AND sent_at IS NOT NULL`.pipe(
              Effect.flatMap(decodeSent),
              Effect.map((rows) => rows.map((row) => ({ id: row.id, to: row.toAddress, sentAt: row.sentAt }))),
              Effect.orDie
            ),
      list: ({ limit, status }) =>
        sql`
          SELECT tenant_id, id, type, to_address, subject, status, attempts, next_attempt_at, last_error,
            created_at, sent_at
          FROM mail_outbox
          ${status === null ? sql`` : sql`WHERE status = ${status}`}
          ORDER BY seq DESC LIMIT ${limit}`.pipe(
          Effect.flatMap(decodeSummaries),
          Effect.map((rows) => rows.map(({ toAddress, ...row }) => ({ ...row, to: toAddress }))),
          Effect.orDie
        ),
      retry: (id, at) =>
        sql`
          UPDATE mail_outbox
          SET status = 'Queued', attempts = 0, next_attempt_at = ${at}, ${leases.release}
          WHERE id = ${id} AND status = 'Failed'
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
