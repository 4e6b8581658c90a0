import { Connection, type ConnectionDirection, sideOf } from "@cisbook/core/connections/Connection"
import type { ConnectionId, ContactId, TenantId } from "@cisbook/core/Ids"
import { ConnectionRepo } from "@cisbook/core/connections/ConnectionRepo"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface Side {
  readonly tenantId: TenantId
  readonly contactId: ContactId
  readonly direction: ConnectionDirection
  readonly connectionId: ConnectionId
}

interface State {
  /** Oldest first. */
  readonly connections: ReadonlyArray<Connection>
  readonly sides: ReadonlyArray<Side>
}

export class ConnectionStore extends Effect.Service<ConnectionStore>()("testkit/ConnectionStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<State>({ connections: [], sides: [] }))
}) {}

const taken = (sides: ReadonlyArray<Side>, side: Side) =>
  sides.some((s) => s.tenantId === side.tenantId && s.contactId === side.contactId && s.direction === side.direction)

const matches = (direction: ConnectionDirection | null) => (c: Connection) =>
  direction === null || c.direction === direction

export const ConnectionRepoMemory = Layer.effect(
  ConnectionRepo,
  Effect.gen(function* () {
    const store = yield* ConnectionStore
    const replace = (id: ConnectionId, f: (c: Connection) => Connection) =>
      Ref.update(store, (s) => ({ ...s, connections: s.connections.map((c) => (c.id === id ? f(c) : c)) }))
    return ConnectionRepo.of({
      insert: (connection) =>
        Ref.modify(store, (s) => {
          const side: Side = {
            tenantId: connection.initiator.tenantId,
            contactId: connection.initiator.contactId,
            direction: connection.direction,
            connectionId: connection.id
          }
          if (taken(s.sides, side)) return [false, s] as const
          return [true, { connections: [...s.connections, connection], sides: [...s.sides, side] }] as const
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ key: "side" }))))),
      findVisible: (viewer, id) =>
        Effect.map(Ref.get(store), (s) =>
          Option.fromNullable(s.connections.find((c) => c.id === id && sideOf(c, viewer) !== undefined))
        ),
      listForContact: (tenantId, contactId, direction) =>
        Effect.map(Ref.get(store), (s) => {
          const ids = new Set(
            s.sides.filter((x) => x.tenantId === tenantId && x.contactId === contactId).map((x) => x.connectionId)
          )
          return s.connections.filter((c) => ids.has(c.id)).filter(matches(direction))
        }),
      listConnected: (tenantId, contactIds) =>
        Effect.map(Ref.get(store), (s) => {
          const ids = new Set(
            s.sides
              .filter((x) => x.tenantId === tenantId && contactIds.includes(x.contactId))
              .map((x) => x.connectionId)
          )
          return s.connections
            .filter((c) => ids.has(c.id) && c.status === "Connected")
            .sort((a, b) => a.connectedAt!.getTime() - b.connectedAt!.getTime() || (a.id < b.id ? -1 : 1))
        }),
      listSentTo: (viewer, direction) =>
        Effect.map(Ref.get(store), (s) =>
          s.connections
            .filter((c) => sideOf(c, viewer) === "SentTo")
            .filter(matches(direction))
            .reverse()
        ),
      connect: (viewer, id, receiver, at) =>
        Ref.modify(store, (s) => {
          const connection = s.connections.find((c) => c.id === id && sideOf(c, viewer) === "SentTo")
          if (connection === undefined) return [true, s] as const
          const side: Side = {
            tenantId: receiver.tenantId,
            contactId: receiver.contactId,
            direction: connection.direction,
            connectionId: id
          }
          if (taken(s.sides, side)) return [false, s] as const
          const connected = new Connection({ ...connection, status: "Connected", receiver, connectedAt: at })
          return [
            true,
            { connections: s.connections.map((c) => (c === connection ? connected : c)), sides: [...s.sides, side] }
          ] as const
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ key: "side" }))))),
      reject: (viewer, id, at) =>
        Effect.flatMap(Ref.get(store), (s) =>
          s.connections.some((c) => c.id === id && sideOf(c, viewer) === "SentTo")
            ? replace(id, (c) => new Connection({ ...c, status: "Rejected", rejectedAt: at }))
            : Effect.void
        ),
      remove: (tenantId, id) =>
        Ref.update(store, (s) => {
          const mine = s.connections.some(
            (c) => c.id === id && (c.initiator.tenantId === tenantId || c.receiver?.tenantId === tenantId)
          )
          return mine
            ? {
                connections: s.connections.filter((c) => c.id !== id),
                sides: s.sides.filter((x) => x.connectionId !== id)
              }
            : s
        })
    })
  })
)
