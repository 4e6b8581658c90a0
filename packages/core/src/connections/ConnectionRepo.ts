import { Context, type Effect, type Option } from "effect"
import type { Connection, ConnectionDirection, ConnectionParty, ConnectionViewer } from "./Connection.js"
import type { ConnectionId, ContactId, TenantId } from "../Ids.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

/**
 * Connections between tenants. A contact is the tenant's side of at most one connection per
 * direction, whichever side it is on: a second fails with DuplicateKey "side".
 */
export class ConnectionRepo extends Context.Tag("core/ConnectionRepo")<
  ConnectionRepo,
  {
    /** Stores a new Pending connection and its initiator's side; DuplicateKey "side" when the contact has one in that direction. */
    readonly insert: (connection: Connection) => Effect.Effect<void, DuplicateKey>
    /**
     * The connection, if the viewer may see it: its initiator, its receiver, or while Pending a
     * tenant it was sent to (an email of the viewer's equals its email, case-insensitively).
     * `forUpdate`, inside a transaction: locked until it ends.
     */
    readonly findVisible: (
      viewer: ConnectionViewer,
      id: ConnectionId,
      forUpdate?: boolean
    ) => Effect.Effect<Option.Option<Connection>>
    /** The connections in which the tenant's contact is the tenant's side, in the direction if given. */
    readonly listForContact: (
      tenantId: TenantId,
      contactId: ContactId,
      direction: ConnectionDirection | null
    ) => Effect.Effect<ReadonlyArray<Connection>>
    /**
     * The Connected connections in which one of the tenant's contacts `contactIds` is the
     * tenant's side, earliest connected first (then by id).
     */
    readonly listConnected: (
      tenantId: TenantId,
      contactIds: ReadonlyArray<ContactId>
    ) => Effect.Effect<ReadonlyArray<Connection>>
    /** The Pending connections sent to the viewer and not initiated by it, newest first. */
    readonly listSentTo: (
      viewer: ConnectionViewer,
      direction: ConnectionDirection | null
    ) => Effect.Effect<ReadonlyArray<Connection>>
    /**
     * Connects a Pending connection sent to the viewer, the receiver's side being `receiver`; DuplicateKey "side" when the
     * receiver's contact has one in that direction.
     */
    readonly connect: (
      viewer: ConnectionViewer,
      id: ConnectionId,
      receiver: ConnectionParty,
      at: Date
    ) => Effect.Effect<void, DuplicateKey>
    /** Marks a Pending connection sent to the viewer rejected; the initiator's side stays. */
    readonly reject: (viewer: ConnectionViewer, id: ConnectionId, at: Date) => Effect.Effect<void>
    /** Removes a connection the tenant is a side of, and both its sides. */
    readonly remove: (tenantId: TenantId, id: ConnectionId) => Effect.Effect<void>
  }
>() {}
