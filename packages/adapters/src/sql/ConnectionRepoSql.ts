import { CisDetails } from "@cisbook/core/cis/CisDetails"
import {
  Connection,
  ConnectionDirection,
  ConnectionParty,
  ConnectionStatus,
  type ConnectionViewer,
  SharedDetails
} from "@cisbook/core/connections/Connection"
import { Email } from "@cisbook/core/Email"
import { ConnectionId, ContactId, TenantId } from "@cisbook/core/Ids"
import { ConnectionRepo } from "@cisbook/core/connections/ConnectionRepo"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { uniqueWrite } from "./UniqueWrite.js"

const encodeCisDetails = Schema.encodeSync(CisDetails)

const Row = Schema.Struct({
  id: ConnectionId,
  direction: ConnectionDirection,
  status: ConnectionStatus,
  initiatorTenantId: TenantId,
  initiatorTenantCode: TenantCode,
  initiatorTenantName: Schema.String,
  initiatorContactId: ContactId,
  initiatorContactCode: Schema.String,
  receiverTenantId: Schema.NullOr(TenantId),
  receiverTenantCode: Schema.NullOr(TenantCode),
  receiverTenantName: Schema.NullOr(Schema.String),
  receiverContactId: Schema.NullOr(ContactId),
  receiverContactCode: Schema.NullOr(Schema.String),
  email: Email,
  sharedName: Schema.String,
  sharedEmail: Schema.NullOr(Email),
  sharedCisDetails: Schema.NullOr(CisDetails),
  createdAt: Schema.DateFromSelf,
  connectedAt: Schema.NullOr(Schema.DateFromSelf),
  rejectedAt: Schema.NullOr(Schema.DateFromSelf)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))

const toConnection = (row: typeof Row.Type) =>
  new Connection({
    id: row.id,
    direction: row.direction,
    status: row.status,
    initiator: new ConnectionParty({
      tenantId: row.initiatorTenantId,
      tenantCode: row.initiatorTenantCode,
      tenantName: row.initiatorTenantName,
      contactId: row.initiatorContactId,
      contactCode: row.initiatorContactCode
    }),
    receiver:
      row.receiverTenantId && row.receiverTenantCode && row.receiverContactId && row.receiverContactCode
        ? new ConnectionParty({
            tenantId: row.receiverTenantId,
            tenantCode: row.receiverTenantCode,
            tenantName: row.receiverTenantName ?? "",
            contactId: row.receiverContactId,
            contactCode: row.receiverContactCode
          })
        : null,
    email: row.email,
    shared: new SharedDetails({ name: row.sharedName, email: row.sharedEmail, cisDetails: row.sharedCisDetails }),
    createdAt: row.createdAt,
    connectedAt: row.connectedAt,
    rejectedAt: row.rejectedAt
  })

/** A connection with its tenants' codes and names. */
const selectConnections = `
  SELECT c.id, c.direction, c.status,
    c.initiator_tenant_id, it.code AS initiator_tenant_code, it.name AS initiator_tenant_name,
    c.initiator_contact_id, c.initiator_contact_code,
    c.receiver_tenant_id, rt.code AS receiver_tenant_code, rt.name AS receiver_tenant_name,
    c.receiver_contact_id, c.receiver_contact_code,
    c.email, c.shared_name, c.shared_email, c.shared_cis_details, c.created_at, c.connected_at, c.rejected_at
  FROM connections c
  JOIN tenants it ON it.id = c.initiator_tenant_id
  LEFT JOIN tenants rt ON rt.id = c.receiver_tenant_id`

export const ConnectionRepoSql = Layer.effect(
  ConnectionRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const sideWrite = uniqueWrite(sql, { connection_sides_pkey: "side" })

    /** Pending and sent to the viewer (one of its emails), by another tenant. */
    const sentTo = (viewer: ConnectionViewer) =>
      viewer.emails.length === 0
        ? sql`false`
        : sql`(c.status = 'Pending' AND c.email IN ${sql.in(viewer.emails)} AND c.initiator_tenant_id <> ${viewer.tenantId})`
    const visibleTo = (viewer: ConnectionViewer) =>
      sql`(c.initiator_tenant_id = ${viewer.tenantId} OR c.receiver_tenant_id = ${viewer.tenantId} OR ${sentTo(viewer)})`
    const read = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map(toConnection)),
        Effect.orDie
      )
    const directionIs = (direction: ConnectionDirection | null) =>
      direction === null ? sql`true` : sql`c.direction = ${direction}`

    return ConnectionRepo.of({
      // One statement, so that a connection is never stored without its side.
      insert: (c) =>
        sideWrite(sql`
          WITH inserted AS (
            INSERT INTO connections (id, direction, status, initiator_tenant_id, initiator_contact_id,
              initiator_contact_code, email, shared_name, shared_email, shared_cis_details, created_at)
            VALUES (${c.id}, ${c.direction}, ${c.status}, ${c.initiator.tenantId}, ${c.initiator.contactId},
              ${c.initiator.contactCode}, ${c.email}, ${c.shared.name}, ${c.shared.email},
              ${c.shared.cisDetails === null ? null : JSON.stringify(encodeCisDetails(c.shared.cisDetails))}::jsonb,
              ${c.createdAt})
            RETURNING id
          )
          INSERT INTO connection_sides (tenant_id, contact_id, direction, connection_id)
          SELECT ${c.initiator.tenantId}, ${c.initiator.contactId}, ${c.direction}, id FROM inserted`).pipe(
          Effect.asVoid
        ),
      findVisible: (viewer, id, forUpdate = false) =>
        read(sql`
          ${sql.literal(selectConnections)} WHERE c.id = ${id} AND ${visibleTo(viewer)}
          ${forUpdate ? sql`FOR UPDATE OF c` : sql``}`).pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),
      listForContact: (tenantId, contactId, direction) =>
        read(sql`
          ${sql.literal(selectConnections)}
          JOIN connection_sides s ON s.connection_id = c.id
          WHERE s.tenant_id = ${tenantId} AND s.contact_id = ${contactId} AND ${directionIs(direction)}
          ORDER BY c.direction`),
      listConnected: (tenantId, contactIds) =>
        contactIds.length === 0
          ? Effect.succeed([])
          : read(sql`
              ${sql.literal(selectConnections)}
              JOIN connection_sides s ON s.connection_id = c.id
              WHERE s.tenant_id = ${tenantId} AND s.contact_id IN ${sql.in(contactIds)} AND c.status = 'Connected'
              ORDER BY c.connected_at, c.id`),
      listSentTo: (viewer, direction) =>
        read(sql`
          ${sql.literal(selectConnections)} WHERE ${sentTo(viewer)} AND ${directionIs(direction)}
          ORDER BY c.created_at DESC, c.id DESC`),
      // One statement: the receiver's side and the connection change together, or not at all.
      connect: (viewer, id, receiver, at) =>
        sideWrite(sql`
          WITH target AS (
            SELECT c.id, c.direction FROM connections c WHERE c.id = ${id} AND ${sentTo(viewer)}
          ),
          side AS (
            INSERT INTO connection_sides (tenant_id, contact_id, direction, connection_id)
            SELECT ${receiver.tenantId}, ${receiver.contactId}, direction, id FROM target
            RETURNING connection_id
          )
          UPDATE connections c SET status = 'Connected', receiver_tenant_id = ${receiver.tenantId},
            receiver_contact_id = ${receiver.contactId}, receiver_contact_code = ${receiver.contactCode},
            connected_at = ${at}
          FROM side WHERE c.id = side.connection_id`).pipe(Effect.asVoid),
      reject: (viewer, id, at) =>
        sql`
          UPDATE connections c SET status = 'Rejected', rejected_at = ${at}
          WHERE c.id = ${id} AND ${sentTo(viewer)}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (tenantId, id) =>
        sql`
          DELETE FROM connections c
          WHERE c.id = ${id} AND (c.initiator_tenant_id = ${tenantId} OR c.receiver_tenant_id = ${tenantId})`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
